import Foundation

// One operation at a fixed rate: request i is due at start + i/RATE; CONNECTIONS keep-alive
// connections take the next due request in turn, wait for its time and send it. BODY may hold
// "{n}" (the request's number) and "{u}" (the number modulo USERS), as bench/cognito.lua does.

/// `cognate-load rate ENDPOINT TARGET BODY RATE SECONDS CONNECTIONS USERS`
struct RateArguments {
    let host: String
    let port: Int
    let target, body: String
    let rate, seconds: Double
    let connections, users: Int

    init(_ values: [String]) {
        guard values.count == 7, let url = URLComponents(string: values[0]), let host = url.host, let port = url.port,
            let rate = Double(values[3]), rate > 0, let seconds = Double(values[4]), let connections = Int(values[5]),
            let users = Int(values[6])
        else { usage() }
        (self.host, self.port, self.target, self.body) = (host, port, values[1], values[2])
        (self.rate, self.seconds, self.connections, self.users) = (rate, seconds, connections, users)
    }
}

func runRate(_ values: [String]) -> Report {
    let arguments = RateArguments(values)
    let total = Int(arguments.rate * arguments.seconds)
    let next = Counter()
    let start = DispatchTime.now().uptimeNanoseconds + 100_000_000
    let outcomes = onThreads(arguments.connections) { _ in
        var outcome = Outcome()
        let connection = HTTPConnection(host: arguments.host, port: arguments.port)
        while true {
            let index = next.take()
            guard index < total else { return outcome }
            let due = start + UInt64(Double(index) / arguments.rate * 1e9)
            let now = DispatchTime.now().uptimeNanoseconds
            if due > now { usleep(useconds_t((due - now) / 1000)) }
            let body = arguments.body.replacingOccurrences(of: "{n}", with: String(index))
                .replacingOccurrences(of: "{u}", with: String(index % max(arguments.users, 1)))
            do {
                let answer = try connection.post(target: arguments.target, body: Array(body.utf8))
                if answer.status == 200 {
                    outcome.latencies.append(Double(DispatchTime.now().uptimeNanoseconds - due) / 1000)
                } else {
                    outcome.errors += 1
                }
            } catch {
                outcome.errors += 1
            }
        }
    }
    return Report(outcomes, seconds: arguments.seconds)
}

/// The next request number, shared by the connections.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func take() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value - 1
    }
}
