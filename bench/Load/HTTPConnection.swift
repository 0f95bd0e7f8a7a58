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
        if socket < 0 {
            socket = try Self.connect(host: host, port: port)
            buffer.removeAll(keepingCapacity: true)
        }
        do {
            try send(Self.request(host: host, port: port, target: target, body: body))
            return try receive()
        } catch {
            disconnect()
            throw error
        }
    }

    /// The bytes of a POST of `body` to `/` with the operation's `X-Amz-Target`.
    static func request(host: String, port: Int, target: String, body: [UInt8]) -> [UInt8] {
        let head = "POST / HTTP/1.1\r\nHost: \(host):\(port)\r\nContent-Type: application/x-amz-json-1.1\r\n"
            + "X-Amz-Target: \(target)\r\nContent-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// A connected TCP socket (blocking, TCP_NODELAY).
    static func connect(host: String, port: Int) throws -> Int32 {
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
        return descriptor
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

    /// Reads one response.
    private func receive() throws -> (status: Int, body: [UInt8]) {
        while true {
            if let response = try HTTPResponse(parsing: buffer) {
                let body = Array(buffer[response.bodyStart..<response.end])
                buffer.removeFirst(response.end)
                if response.closes { disconnect() }
                return (response.status, body)
            }
            try fill()
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw Failure(description: "the server closed the connection") }
        buffer += chunk[..<count]
    }
}

/// The response at the start of a buffer (Content-Length framing, which both servers use),
/// read byte by byte: the rate mode parses thousands a second beside the server it measures.
struct HTTPResponse {
    let status: Int
    let bodyStart: Int
    /// Where the response ends in the buffer.
    let end: Int
    /// Whether the server closes the connection after it.
    let closes: Bool

    /// Nil until `buffer` holds the whole response; throws on what is not HTTP.
    init?(parsing buffer: [UInt8]) throws {
        guard let headerEnd = Self.headerEnd(in: buffer) else { return nil }
        // "HTTP/1.1 200 OK"
        guard headerEnd > 12, buffer[8] == 0x20, let status = Self.number(buffer[9..<12]) else {
            throw HTTPConnection.Failure(description: "not an HTTP response")
        }
        var length = 0
        var closes = buffer[7] == 0x30  // HTTP/1.0
        var line = buffer.firstIndex(of: 10)! + 1
        while line < headerEnd - 2 {
            let lineEnd = buffer[line...].firstIndex(of: 13)!
            let text = buffer[line..<lineEnd]
            if Self.hasPrefix(text, "content-length:") {
                length = Self.number(text.dropFirst(15).drop { $0 == 0x20 }) ?? 0
            } else if Self.hasPrefix(text, "connection:") {
                closes = String(decoding: text, as: UTF8.self).lowercased().contains("close")
            }
            line = lineEnd + 2
        }
        guard buffer.count >= headerEnd + length else { return nil }
        (self.status, self.bodyStart, self.end, self.closes) = (status, headerEnd, headerEnd + length, closes)
    }

    /// Just past the blank line that ends the head.
    private static func headerEnd(in buffer: [UInt8]) -> Int? {
        var index = 3
        while index < buffer.count {
            if buffer[index] == 10, buffer[index - 1] == 13, buffer[index - 2] == 10, buffer[index - 3] == 13 {
                return index + 1
            }
            index += 1
        }
        return nil
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard (0x30...0x39).contains(digit) else { return digits.isEmpty ? nil : value }
            value = value * 10 + Int(digit - 0x30)
        }
        return digits.isEmpty ? nil : value
    }

    /// Whether `text` starts with `prefix` (lowercase ASCII), ignoring case.
    private static func hasPrefix(_ text: ArraySlice<UInt8>, _ prefix: StaticString) -> Bool {
        guard text.count >= prefix.utf8CodeUnitCount else { return false }
        let start = text.startIndex
        for offset in 0..<prefix.utf8CodeUnitCount where text[start + offset] | 0x20 != prefix.utf8Start[offset] {
            return false
        }
        return true
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
