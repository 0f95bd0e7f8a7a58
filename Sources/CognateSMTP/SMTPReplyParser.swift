import NIOCore

/// Splits the bytes a server sends into ``SMTPReply`` values (RFC 5321 §4.2), with bounds so a
/// hostile server cannot make the client buffer without limit: a line longer than
/// ``maximumLineLength`` or a reply of more than ``maximumLinesPerReply`` lines is a protocol
/// violation.
struct SMTPReplyParser {
    /// RFC 5321 limits reply lines to 512 octets; real servers stay far below this.
    static let maximumLineLength = 2048
    /// An `EHLO` reply lists one extension a line; no server offers anywhere near this many.
    static let maximumLinesPerReply = 100

    private var buffer = ByteBuffer()
    private var pendingCode: Int?
    private var pendingLines: [String] = []

    /// Whether bytes of an unfinished reply are waiting for more input.
    var hasUnparsedBytes: Bool { buffer.readableBytes > 0 || !pendingLines.isEmpty }

    mutating func append(_ bytes: ByteBuffer) {
        var bytes = bytes
        buffer.writeBuffer(&bytes)
    }

    /// The next complete reply, or nil until more bytes arrive.
    /// - Throws: ``SMTPError/protocolViolation(_:)`` for input that is not a valid reply.
    mutating func nextReply() throws -> SMTPReply? {
        while let line = try nextLine() {
            let (code, isLast, text) = try Self.parseLine(line)
            if let pendingCode, pendingCode != code {
                throw SMTPError.protocolViolation("reply line with code \(code) inside a \(pendingCode) reply")
            }
            pendingCode = code
            pendingLines.append(text)
            if isLast {
                let reply = SMTPReply(code: code, lines: pendingLines)
                pendingCode = nil
                pendingLines = []
                buffer.discardReadBytes()
                return reply
            }
            guard pendingLines.count < Self.maximumLinesPerReply else {
                throw SMTPError.protocolViolation("reply longer than \(Self.maximumLinesPerReply) lines")
            }
        }
        return nil
    }

    /// The next line without its LF (or CRLF), or nil if no full line is buffered yet.
    private mutating func nextLine() throws -> [UInt8]? {
        let view = buffer.readableBytesView
        guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
            guard view.count <= Self.maximumLineLength else {
                throw SMTPError.protocolViolation("reply line longer than \(Self.maximumLineLength) bytes")
            }
            return nil
        }
        let lineLength = newline - view.startIndex
        guard lineLength <= Self.maximumLineLength else {
            throw SMTPError.protocolViolation("reply line longer than \(Self.maximumLineLength) bytes")
        }
        var line = buffer.readBytes(length: lineLength + 1) ?? []
        line.removeLast()
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line
    }

    /// `250-text`, `250 text` or `250`: the code, whether the reply ends here, and the text.
    private static func parseLine(_ line: [UInt8]) throws -> (code: Int, isLast: Bool, text: String) {
        let digits = line.prefix(3)
        guard digits.count == 3, let first = digits.first, (UInt8(ascii: "2")...UInt8(ascii: "5")).contains(first),
              digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else {
            throw SMTPError.protocolViolation("malformed reply line: \(printable(line.prefix(80)).debugDescription)")
        }
        let code = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard line.count > 3 else { return (code, true, "") }
        switch line[3] {
        case UInt8(ascii: " "): return (code, true, printable(line.dropFirst(4)))
        case UInt8(ascii: "-"): return (code, false, printable(line.dropFirst(4)))
        default: throw SMTPError.protocolViolation("malformed reply line: \(printable(line.prefix(80)).debugDescription)")
        }
    }

    /// The bytes as UTF-8 (invalid sequences and control characters become U+FFFD), so reply
    /// text is safe to log and show.
    private static func printable(_ bytes: some Collection<UInt8>) -> String {
        let decoded = String(decoding: bytes, as: UTF8.self)
        return String(String.UnicodeScalarView(decoded.unicodeScalars.map {
            $0.properties.generalCategory == .control && $0 != "\t" ? "\u{FFFD}" : $0
        }))
    }
}
