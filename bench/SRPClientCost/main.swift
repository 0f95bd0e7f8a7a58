import CognateProtocol
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The client's CPU per SRP sign-in: a new ephemeral key (`SRP_A = g^a`) and the password claim
// (`g^x`, `(B - k·g^x)^(a + u·x)`, the hashes and the signature), measured as process CPU time.
// Build and run in release mode: `swift run -c release srp-client-cost [sign-ins]`.

/// CPU seconds this process has used.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

let signIns = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 50
// Any element of the group serves as the server's `SRP_B` for measuring.
let serverPublic = SRPClient(ephemeral: Array(repeating: 0xbb, count: 32)).publicValueHex
let date = Date(timeIntervalSince1970: 1_800_000_000)

func signIn() throws -> String {
    let client = SRPClient()
    _ = client.publicValueHex
    return try client.passwordClaim(
        realm: "AbCdEfGhI", identity: "0b6f8e2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b", secret: "Passw0rd1",
        saltHex: "1f2e3d4c5b6a79887766554433221100", serverPublicHex: serverPublic,
        secretBlock: "b3BhcXVlLXNlY3JldC1ibG9jay0wMTIzNDU2Nzg5", date: date
    ).signature
}

for _ in 0..<3 { _ = try signIn() }  // warm-up
var samples: [Double] = []
for _ in 0..<signIns {
    let start = processCPUSeconds()
    _ = try signIn()
    samples.append((processCPUSeconds() - start) * 1000)
}
samples.sort()
let mean = samples.reduce(0, +) / Double(samples.count)
func format(_ value: Double) -> String { String(format: "%.1f", value) }
print("SRP client sign-in CPU over \(signIns) sign-ins: median \(format(samples[samples.count / 2])) ms, "
    + "mean \(format(mean)) ms, min \(format(samples[0])) ms, max \(format(samples[samples.count - 1])) ms")
