import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-shot HTTP listener on a literal loopback address (`127.0.0.1` or `::1`) and port: the
/// redirect of a web sign-in on platforms without a web authentication session (Linux,
/// command-line tools).
///
/// Any process of the machine can connect to a loopback port, so the listener trusts no
/// request for being first: it returns only a request for `path` that `accepts` (the caller
/// checks the sign-in's `state`), answers every other one `400` and goes on listening. A
/// connection that sends no request line within ``idleTimeout`` is closed, so an idle
/// connection cannot hold the listener up; the wait ends on cancellation within a second.
final class LoopbackListener: @unchecked Sendable {
    /// The loopback addresses a listener binds; never a name (`localhost` may resolve to the
    /// other family, where another process could listen on the same port).
    enum Address: Sendable, Equatable {
        case ipv4
        case ipv6

        /// The address a callback URL's host names literally (`127.0.0.1`, `::1` or `[::1]`).
        init?(literal host: String) {
            switch host {
            case "127.0.0.1": self = .ipv4
            case "::1", "[::1]": self = .ipv6
            default: return nil
            }
        }

        /// The host as it is written in a URL.
        var urlHost: String { self == .ipv4 ? "127.0.0.1" : "[::1]" }
    }

    private let socketDescriptor: Int32
    let port: UInt16
    let address: Address
    /// How long a connection may take to send its request line.
    var idleTimeout: TimeInterval = 2

    /// Binds the port on the address (fails when it is taken).
    init(address: Address = .ipv4, port: UInt16) throws {
        let family = address == .ipv4 ? AF_INET : AF_INET6
        #if canImport(Glibc)
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(family, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure.socket(errno) }
        // Close-on-exec: a process the app starts meanwhile must not inherit the listener and
        // keep the port (and the callback) after the sign-in.
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32
        switch address {
        case .ipv4:
            var socketAddress = sockaddr_in()
            #if canImport(Darwin)
            socketAddress.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = port.bigEndian
            socketAddress.sin_addr.s_addr = inet_addr("127.0.0.1")
            bound = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .ipv6:
            var only: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &only, socklen_t(MemoryLayout<Int32>.size))
            var socketAddress = sockaddr_in6()
            #if canImport(Darwin)
            socketAddress.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
            #endif
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = port.bigEndian
            socketAddress.sin6_addr = in6addr_loopback
            bound = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        // Non-blocking, so that a connection gone between poll and accept cannot block the wait.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        guard bound == 0, listen(descriptor, 8) == 0 else {
            let code = errno
            close(descriptor)
            throw Failure.bind(host: address.urlHost, port: port, code)
        }
        self.socketDescriptor = descriptor
        self.port = port
        self.address = address
    }

    private let lock = NSLock()
    private var closed = false

    deinit { stop() }

    /// Stops listening (once): the port is free again as soon as the request came, or the wait
    /// ended, not whenever the last reference to the listener goes away.
    func stop() {
        let closing = lock.withLock {
            defer { closed = true }
            return !closed
        }
        if closing { close(socketDescriptor) }
    }

    enum Failure: Error, CustomStringConvertible {
        case socket(Int32)
        case bind(host: String, port: UInt16, Int32)
        case timedOut

        var description: String {
            switch self {
            case .socket(let code): return "Could not open a socket (errno \(code))."
            case .bind(let host, let port, let code): return "Could not listen on \(host):\(port) (errno \(code))."
            case .timedOut: return "The browser did not come back in time."
            }
        }
    }

    /// The request target (`/callback?code=…`) of the first request for `path` whose query
    /// `accepts` (by name; the first value of each), waiting at most `timeout` seconds. Throws
    /// `CancellationError` when the task is cancelled (within a quarter of a second, or
    /// ``idleTimeout`` while a connection is being read).
    ///
    /// The connections are served on a thread of the listener's own, not on a shared pool:
    /// the waits block, and a pool of as many threads as cores would stall other work.
    /// `done` is the title of the page the awaited request is answered with.
    func awaitRequest(
        path: String, timeout: TimeInterval, done: String = "Signed in",
        accepts: @escaping @Sendable ([String: String]) -> Bool
    ) async throws -> String {
        // The port is free again as soon as the wait ends (the listener's thread is done with
        // it by then: the continuation resumes only when the thread returns).
        defer { self.stop() }
        let signal = StopSignal()
        let deadline = Date().addingTimeInterval(timeout)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let thread = Thread { [self] in
                    continuation.resume(with: serve(path: path, deadline: deadline, done: done, stop: signal, accepts: accepts))
                }
                thread.name = "CognateAuth loopback listener"
                thread.start()
            }
        } onCancel: {
            signal.raise()
        }
    }

    /// The query of a request target, by name (the first value of each).
    static func query(of target: String) -> [String: String] {
        let items = URLComponents(string: "http://127.0.0.1" + target)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// Accepts connections until one brings the awaited request, the deadline passes or `stop`
    /// is raised; answers each (`200` for the awaited one, `400` for others).
    private func serve(
        path: String, deadline: Date, done: String, stop: StopSignal, accepts: @Sendable ([String: String]) -> Bool
    ) -> Result<String, any Error> {
        let idle = Int32(idleTimeout * 1000)
        while true {
            if stop.isRaised { return .failure(CancellationError()) }
            if Date() >= deadline { return .failure(Failure.timedOut) }
            var poller = pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 250) > 0 else { continue }
            let connection = accept(socketDescriptor, nil, nil)
            guard connection >= 0 else { continue }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            defer { close(connection) }
            guard let line = Self.requestLine(of: connection, within: idle) else { continue }
            // The rest of the head, if it came: closing with unread bytes would reset the
            // connection before the browser read the page.
            var rest = [UInt8](repeating: 0, count: 8192)
            _ = recv(connection, &rest, rest.count, Int32(MSG_DONTWAIT))
            let parts = line.split(separator: " ")
            let target = parts.count >= 2 && parts[0] == "GET" ? String(parts[1]) : nil
            let matches = target.map {
                $0.split(separator: "?", maxSplits: 1).first.map(String.init) == path && accepts(Self.query(of: $0))
            } ?? false
            let page = matches
                ? "<!doctype html><title>\(done)</title><p>You can close this window and return to the app.</p>"
                : "<!doctype html><title>Not this sign-in</title><p>This request does not belong to the sign-in under way.</p>"
            let status = matches ? "200 OK" : "400 Bad Request"
            let response = "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(page.utf8.count)\r\n"
                + "Cache-Control: no-store\r\nConnection: close\r\n\r\n" + page
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)  // a browser gone already must not kill the app with SIGPIPE
            #else
            var noSignal: Int32 = 1
            setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
            let flags: Int32 = 0
            #endif
            _ = response.withCString { send(connection, $0, strlen($0), flags) }
            if matches, let target { return .success(target) }
        }
    }

    /// Raised when the waiting task is cancelled; read by the listener's thread.
    private final class StopSignal: @unchecked Sendable {
        private let lock = NSLock()
        private var raised = false
        var isRaised: Bool { lock.withLock { raised } }
        func raise() { lock.withLock { raised = true } }
    }

    /// The first line of the request on `connection`, read for at most `milliseconds` in all
    /// (nil when it does not come in time, or is longer than 8 KiB).
    private static func requestLine(of connection: Int32, within milliseconds: Int32) -> String? {
        let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 8192 {
            let left = Int32(deadline.timeIntervalSinceNow * 1000)
            guard left > 0 else { return nil }
            var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, left) > 0 else { return nil }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received.append(contentsOf: buffer[..<count])
            if let end = received.firstIndex(of: UInt8(ascii: "\r")) ?? received.firstIndex(of: UInt8(ascii: "\n")) {
                return String(decoding: received[..<end], as: UTF8.self)
            }
        }
        return nil
    }
}
