import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-shot HTTP listener on `127.0.0.1:<port>`: the redirect of a web sign-in on platforms
/// without a web authentication session (Linux, command-line tools). It answers every request
/// with a short page and returns the first whose path is `path`.
final class LoopbackListener: @unchecked Sendable {
    private let socketDescriptor: Int32
    let port: UInt16

    /// Binds the port (fails when it is taken).
    init(port: UInt16) throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure.socket(errno) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 8) == 0 else {
            let code = errno
            close(descriptor)
            throw Failure.bind(port: port, code)
        }
        self.socketDescriptor = descriptor
        self.port = port
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
        case bind(port: UInt16, Int32)
        case timedOut

        var description: String {
            switch self {
            case .socket(let code): return "Could not open a socket (errno \(code))."
            case .bind(let port, let code): return "Could not listen on 127.0.0.1:\(port) (errno \(code))."
            case .timedOut: return "The browser did not come back in time."
            }
        }
    }

    /// The request target (`/callback?code=…`) of the first request for `path`, waiting at
    /// most `timeout` seconds; cancellable.
    func awaitRequest(path: String, timeout: TimeInterval) async throws -> String {
        defer { stop() }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            try Task.checkCancellation()
            guard let target = try await acceptOne() else { continue }
            if target.split(separator: "?", maxSplits: 1).first.map(String.init) == path { return target }
        }
        throw Failure.timedOut
    }

    /// Waits up to half a second for a connection; answers it and returns its request target.
    private func acceptOne() async throws -> String? {
        let descriptor = socketDescriptor
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 500) > 0 else { return continuation.resume(returning: nil) }
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return continuation.resume(returning: nil) }
                defer { close(connection) }
                var buffer = [UInt8](repeating: 0, count: 8192)
                let count = recv(connection, &buffer, buffer.count, 0)
                let head = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
                let target = head.split(separator: "\r\n").first?.split(separator: " ").dropFirst().first.map(String.init)
                let page = "<!doctype html><title>Signed in</title><p>You can close this window and return to the app.</p>"
                let response = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(page.utf8.count)\r\n"
                    + "Connection: close\r\n\r\n" + page
                _ = response.withCString { send(connection, $0, strlen($0), 0) }
                continuation.resume(returning: target)
            }
        }
    }
}
