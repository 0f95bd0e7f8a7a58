import CLoadSystem
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// One operation at a fixed rate, open loop: request i is due at start + i/RATE and goes out on
// the next idle keep-alive connection of CONNECTIONS; when all are busy it waits for one, its
// latency still counted from when it was due, so a slow server cannot hide its queue. BODY may
// hold "{n}" (the request's number) and "{u}" (the number modulo USERS), as bench/cognito.lua.
//
// One thread drives every connection with epoll and sleeps until the next request is due or
// an answer arrives. (A thread per connection, blocking, cost 0.65 of the machine's 2 cores at
// 5,000 GetUser/s, so the server it measured at half its peak ran on a nearly full machine.)

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
            connections > 0, let users = Int(values[6])
        else { usage() }
        (self.host, self.port, self.target, self.body) = (host, port, values[1], values[2])
        (self.rate, self.seconds, self.connections, self.users) = (rate, seconds, connections, users)
    }
}

func runRate(_ values: [String]) -> Report {
    let arguments = RateArguments(values)
    let driver = RateDriver(arguments)
    return Report([driver.run()], seconds: arguments.seconds)
}

/// The connections of a rate run and the requests they carry.
private final class RateDriver {
    private struct Connection {
        var socket: Int32
        var buffer: [UInt8] = []
        /// When the request in flight was due (ns); nil when idle.
        var due: UInt64?
    }

    private let arguments: RateArguments
    private let body: BodyTemplate
    private let total: Int
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    private let epoll = epoll_create1(0)
    private var connections: [Connection] = []
    private var idle: [Int] = []
    private var outcome = Outcome()
    private var start: UInt64 = 0
    /// The next request to send, and how many have been answered (or failed).
    private var next = 0
    private var finished = 0

    init(_ arguments: RateArguments) {
        self.arguments = arguments
        body = BodyTemplate(arguments.body)
        total = Int(arguments.rate * arguments.seconds)
        for index in 0..<arguments.connections {
            connections.append(Connection(socket: open(index)))
            idle.append(index)
        }
    }

    func run() -> Outcome {
        start = monotonicNanoseconds() + 100_000_000
        // Past this, what has not been answered counts as failed.
        let giveUp = start + UInt64(arguments.seconds * 1e9) + 30_000_000_000
        var events = [epoll_event](repeating: epoll_event(), count: connections.count)
        while finished < total {
            let now = monotonicNanoseconds()
            if now > giveUp {
                outcome.errors += total - finished
                break
            }
            while next < total, due(next) <= now, let index = idle.popLast() {
                send(next, on: index)
                next += 1
            }
            // Sleep until the next request is due (if a connection is free to take it), or an
            // answer arrives, or a second passes.
            let wait = next < total && !idle.isEmpty ? min(due(next) - min(due(next), now), 1_000_000_000) : 1_000_000_000
            var timeout = timespec(tv_sec: Int(wait / 1_000_000_000), tv_nsec: Int(wait % 1_000_000_000))
            let count = epoll_pwait2(epoll, &events, Int32(events.count), &timeout, nil)
            if count < 0 {
                guard errno == EINTR else { fatalError("epoll_pwait2: \(String(cString: strerror(errno)))") }
                continue
            }
            for event in events[..<Int(count)] { readable(Int(event.data.u32)) }
        }
        return outcome
    }

    private func due(_ number: Int) -> UInt64 {
        start + UInt64(Double(number) / arguments.rate * 1e9)
    }

    private func send(_ number: Int, on index: Int) {
        let bytes = HTTPConnection.request(
            host: arguments.host, port: arguments.port, target: arguments.target,
            body: body.render(number: number, user: number % max(arguments.users, 1)))
        connections[index].due = due(number)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(connections[index].socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                sent += count
            } else if count < 0, errno == EAGAIN {
                var writable = pollfd(fd: connections[index].socket, events: Int16(POLLOUT), revents: 0)
                _ = poll(&writable, 1, 1000)
            } else {
                return broken(index)
            }
        }
    }

    /// Reads what a connection has and settles the request it answers.
    private func readable(_ index: Int) {
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(connections[index].socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                connections[index].buffer += chunk[..<count]
            } else if count < 0, errno == EAGAIN {
                break
            } else {
                return broken(index)
            }
        }
        guard let due = connections[index].due else { return }
        let response: HTTPResponse
        do {
            guard let complete = try HTTPResponse(parsing: connections[index].buffer) else { return }
            response = complete
        } catch {
            return broken(index)
        }
        if response.status == 200 {
            outcome.latencies.append(Double(monotonicNanoseconds() - due) / 1000)
        } else {
            outcome.errors += 1
        }
        finished += 1
        connections[index].buffer.removeFirst(response.end)
        connections[index].due = nil
        if response.closes { reopen(index) }
        idle.append(index)
    }

    /// A connection that failed: its request in flight fails, and it is opened anew.
    private func broken(_ index: Int) {
        if connections[index].due != nil {
            outcome.errors += 1
            finished += 1
            idle.append(index)
        }
        reopen(index)
    }

    private func reopen(_ index: Int) {
        epoll_ctl(epoll, EPOLL_CTL_DEL, connections[index].socket, nil)
        close(connections[index].socket)
        connections[index] = Connection(socket: open(index))
    }

    /// A non-blocking connection registered with epoll under `index`.
    private func open(_ index: Int) -> Int32 {
        let socket: Int32
        do {
            socket = try HTTPConnection.connect(host: arguments.host, port: arguments.port)
        } catch {
            fatalError("\(error)")
        }
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u32 = UInt32(index)
        epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event)
        return socket
    }
}

/// A request body with "{n}" and "{u}" in it, split once, so that a request is built by
/// appending bytes.
private struct BodyTemplate {
    private enum Part {
        case text([UInt8])
        case number
        case user
    }

    private let parts: [Part]

    init(_ template: String) {
        var parts: [Part] = []
        var text: [UInt8] = []
        let bytes = Array(template.utf8)
        var index = 0
        while index < bytes.count {
            let placeholder = index + 2 < bytes.count && bytes[index] == UInt8(ascii: "{") && bytes[index + 2] == UInt8(ascii: "}")
            if placeholder, bytes[index + 1] == UInt8(ascii: "n") || bytes[index + 1] == UInt8(ascii: "u") {
                parts.append(.text(text))
                text = []
                parts.append(bytes[index + 1] == UInt8(ascii: "n") ? .number : .user)
                index += 3
            } else {
                text.append(bytes[index])
                index += 1
            }
        }
        parts.append(.text(text))
        self.parts = parts
    }

    func render(number: Int, user: Int) -> [UInt8] {
        var body: [UInt8] = []
        for part in parts {
            switch part {
            case .text(let bytes): body += bytes
            case .number: body += String(number).utf8
            case .user: body += String(user).utf8
            }
        }
        return body
    }
}
