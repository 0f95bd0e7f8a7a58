/// The transparency procedure of SMTP `DATA` (RFC 5321 §4.5.2).
enum DotStuffing {
    /// `message` (whose lines end with CRLF) with a second `.` before every line that starts
    /// with `.`, followed by the end-of-data line `.` CRLF. A message not ending with CRLF gets
    /// one first, so the terminator always starts a line of its own.
    static func dataPayload(_ message: some Collection<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(message.count + message.count / 64 + 5)
        var atLineStart = true
        var previous: UInt8 = 0
        for byte in message {
            if atLineStart && byte == UInt8(ascii: ".") { output.append(UInt8(ascii: ".")) }
            output.append(byte)
            atLineStart = previous == UInt8(ascii: "\r") && byte == UInt8(ascii: "\n")
            previous = byte
        }
        if !atLineStart { output += Array("\r\n".utf8) }
        return output + Array(".\r\n".utf8)
    }
}
