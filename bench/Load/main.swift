import Foundation

// Load generators for bench/run.py (wrk cannot do either):
//
//   cognate-load srp ENDPOINT POOL_ID CLIENT_ID USERNAME PASSWORD SECONDS CONNECTIONS USERS
//       complete USER_SRP_AUTH sign-ins as fast as the server answers (closed loop);
//   cognate-load rate ENDPOINT TARGET BODY RATE SECONDS CONNECTIONS USERS
//       one operation at a fixed rate (open loop: latency counts from when a request was due,
//       so a slow server cannot hide its queue);
//   cognate-load steadiness SECONDS
//       how steady the machine's CPUs are (stretches where fixed arithmetic runs slower).
//
// Prints one JSON line: requests (or sign-ins), seconds, errors, p50/p99 latency (µs); for
// steadiness, the fastest piece of arithmetic, the share of time in slow stretches, how much
// slower they ran and the longest.

func usage() -> Never {
    FileHandle.standardError.write(Data("""
        usage: cognate-load srp ENDPOINT POOL_ID CLIENT_ID USERNAME PASSWORD SECONDS CONNECTIONS USERS
               cognate-load rate ENDPOINT TARGET BODY RATE SECONDS CONNECTIONS USERS
               cognate-load steadiness SECONDS

        """.utf8))
    exit(2)
}

let values = Array(CommandLine.arguments.dropFirst())
switch values.first {
case "srp": print(runSRP(Array(values.dropFirst())).json)
case "rate": print(runRate(Array(values.dropFirst())).json)
case "steadiness": print(runSteadiness(Array(values.dropFirst())))
default: usage()
}
