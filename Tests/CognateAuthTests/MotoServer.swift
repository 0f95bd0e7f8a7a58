import CognateAuth
import CognateProtocol
import CognateTestSupport
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `moto_server` on a free port: the STS the live server's GetCredentialsForIdentity calls
/// (`AssumeRoleWithWebIdentity`), and where tests ask who credentials are (`GetCallerIdentity`).
///
/// Found beside `COGNATE_TEST_PYTHON` (Scripts/test points it at its virtual environment's
/// python) or on `PATH`; tests that need it are skipped with a message when it is neither.
final class MotoServer: @unchecked Sendable {
    let endpoint: URL
    private let process: SpawnedProcess

    /// The `moto_server` executable, if one can be found.
    static let executable: String? = {
        let environment = ProcessInfo.processInfo.environment
        var directories: [String] = []
        if let python = environment["COGNATE_TEST_PYTHON"] {
            directories.append(URL(fileURLWithPath: python).deletingLastPathComponent().path)
        }
        directories += (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return directories.map { "\($0)/moto_server" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let missing = "moto_server not found: set COGNATE_TEST_PYTHON to the python of a virtual environment "
        + "with moto[server] (Scripts/test does) or put moto_server on PATH"

    private init(endpoint: URL, process: SpawnedProcess) {
        self.endpoint = endpoint
        self.process = process
    }

    /// Starts moto, runs `body` with it, and stops it. A moto that exits while starting (its
    /// port taken meanwhile by another test's server: ports are picked free, then bound) is
    /// started again on another port, up to three times.
    static func with(_ body: (MotoServer) async throws -> Void) async throws {
        guard let executable else { throw AuthError.invalidState(missing) }
        for attempt in 1...3 {
            let port = try FreePort.pick()
            let process = try SpawnedProcess.spawn([executable, "-H", "127.0.0.1", "-p", String(port)])
            let moto = MotoServer(endpoint: URL(string: "http://127.0.0.1:\(port)/")!, process: process)
            defer { process.terminate() }
            guard try await moto.waitUntilServing() else {
                if attempt == 3 { throw AuthError.invalidState("moto_server exited three times while starting") }
                continue
            }
            try await body(moto)
            return
        }
    }

    /// True once moto answers; false if its process exited first.
    private func waitUntilServing() async throws -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if (try? await URLSession.shared.data(from: endpoint.appendingPathComponent("moto-api/"))) != nil { return true }
            guard process.isRunning else { return false }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw AuthError.invalidState("moto_server did not start on \(endpoint)")
    }

    /// The ARN STS sees for `credentials` (moto's `GetCallerIdentity`, SigV4-signed with them):
    /// `arn:aws:sts::123456789012:assumed-role/<role>/CognitoIdentityCredentials`.
    func callerARN(_ credentials: AWSCredentials) async throws -> String {
        let body = Data("Action=GetCallerIdentity&Version=2011-06-15".utf8)
        var headers = [
            "Content-Type": "application/x-www-form-urlencoded; charset=utf-8",
            "X-Amz-Security-Token": credentials.sessionToken,
        ]
        let signer = SigV4Signer(
            accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey, region: "us-east-1",
            service: "sts")
        headers.merge(signer.sign(method: "POST", url: endpoint, headers: headers, body: body)) { $1 }
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, _) = try await URLSession.shared.data(for: request)
        let text = String(decoding: data, as: UTF8.self)
        guard let start = text.range(of: "<Arn>"), let end = text.range(of: "</Arn>", range: start.upperBound..<text.endIndex)
        else { return text }
        return String(text[start.upperBound..<end.lowerBound])
    }
}
