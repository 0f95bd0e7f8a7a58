import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 connection on a blocking socket that posts AWS JSON 1.1 requests, one at a
/// time, keeping the connection alive when the server does and reconnecting when it does not
/// (moto's server closes after every answer). Each load worker owns one on its own thread.
final class HTTPConnection {
    let host: String
    let port: Int
    private var socket: Int32 = -1
    private var buffer: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    deinit { disconnect() }

    /// POSTs `body` to `/` with the operation's `X-Amz-Target`; returns the status and body.
    func post(target: String, body: [UInt8]) throws -> (status: Int, body: [UInt8]) {
        if socket < 0 { try connect() }
        let head = "POST / HTTP/1.1\r\nHost: \(host):\(port)\r\nContent-Type: application/x-amz-json-1.1\r\n"
            + "X-Amz-Target: \(target)\r\nContent-Length: \(body.count)\r\n\r\n"
        do {
            try send(Array(head.utf8) + body)
            return try receive()
        } catch {
            disconnect()
            throw error
        }
    }

    private func connect() throws {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let address = result else {
            throw Failure(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(result) }
        let descriptor = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype, 0)
        guard descriptor >= 0, Glibc.connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw Failure(description: "cannot connect to \(host):\(port)")
        }
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        socket = descriptor
        buffer.removeAll(keepingCapacity: true)
    }

    private func disconnect() {
        if socket >= 0 { close(socket) }
        socket = -1
    }

    private func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "the connection broke while sending") }
            sent += count
        }
    }

    /// Reads one response (Content-Length framing, which both servers use).
    private func receive() throws -> (status: Int, body: [UInt8]) {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = buffer.firstRange(of: separator)?.upperBound
            if headerEnd == nil { try fill() }
        }
        let headText = String(decoding: buffer[..<headerEnd!], as: UTF8.self).lowercased()
        let lines = headText.split(separator: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else {
            throw Failure(description: "not an HTTP response")
        }
        var length = 0
        var closes = statusLine.hasPrefix("http/1.0")
        for line in lines.dropFirst() {
            if line.hasPrefix("content-length:") { length = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0 }
            if line.hasPrefix("connection:") { closes = line.contains("close") }
        }
        while buffer.count < headerEnd! + length { try fill() }
        let body = Array(buffer[headerEnd!..<(headerEnd! + length)])
        buffer.removeFirst(headerEnd! + length)
        if closes { disconnect() }
        return (status, body)
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw Failure(description: "the server closed the connection") }
        buffer += chunk[..<count]
    }
}

/// Runs `work` on `count` threads of its own (blocking sockets stay off Swift's cooperative
/// pool) and returns what each produced.
func onThreads<Result: Sendable>(_ count: Int, _ work: @escaping @Sendable (Int) -> Result) -> [Result] {
    let results = Results<Result>()
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            results.append(work(index))
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    group.wait()
    return results.all
}

/// What the threads produced, collected under a lock.
final class Results<Result: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Result] = []

    func append(_ value: Result) {
        lock.lock()
        values.append(value)
        lock.unlock()
    }

    var all: [Result] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}
