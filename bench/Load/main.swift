import Foundation

// Load generators for bench/run.py (wrk cannot do either):
//
//   cognate-load srp ENDPOINT POOL_ID CLIENT_ID USERNAME PASSWORD SECONDS CONNECTIONS USERS
//       complete USER_SRP_AUTH sign-ins as fast as the server answers (closed loop);
//   cognate-load rate ENDPOINT TARGET BODY RATE SECONDS CONNECTIONS USERS
//       one operation at a fixed rate (open loop: latency counts from when a request was due,
//       so a slow server cannot hide its queue).
//
// Prints one JSON line: requests (or sign-ins), seconds, errors, p50/p99 latency (µs).

func usage() -> Never {
    FileHandle.standardError.write(Data("""
        usage: cognate-load srp ENDPOINT POOL_ID CLIENT_ID USERNAME PASSWORD SECONDS CONNECTIONS USERS
               cognate-load rate ENDPOINT TARGET BODY RATE SECONDS CONNECTIONS USERS

        """.utf8))
    exit(2)
}

let values = Array(CommandLine.arguments.dropFirst())
let report: Report
switch values.first {
case "srp": report = runSRP(Array(values.dropFirst()))
case "rate": report = runRate(Array(values.dropFirst()))
default: usage()
}
print(report.json)
