/// Quoted-printable content transfer encoding (RFC 2045 §6.7) of UTF-8 text.
enum QuotedPrintable {
    /// Encoded lines are at most this long, soft line break included (RFC 2045's limit).
    static let maximumLineLength = 76

    /// Encodes `text` line by line: its line breaks (CRLF, LF or a lone CR) become CRLF, long
    /// lines get soft breaks (`=` CRLF), and every byte outside printable ASCII, `=`, and space
    /// or tab before a line break are written as `=XX`. The result is 7-bit ASCII with lines of
    /// at most 76 octets and ends with CRLF; decoding it gives `text` with CRLF line breaks
    /// (plus a final one if `text` did not end with a line break).
    static func encode(_ text: String) -> String {
        var output = ""
        for line in lines(of: Array(text.utf8)) {
            encodeLine(line, into: &output)
            output += "\r\n"
        }
        return output
    }

    /// The lines of `bytes` without their terminators; a final line break ends the last line
    /// rather than starting an empty one.
    private static func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\r"):
                result.append(bytes[start..<index])
                index += index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n") ? 2 : 1
                start = index
            case UInt8(ascii: "\n"):
                result.append(bytes[start..<index])
                index += 1
                start = index
            default:
                index += 1
            }
        }
        if start < bytes.count || result.isEmpty { result.append(bytes[start...]) }
        return result
    }

    private static func encodeLine(_ line: ArraySlice<UInt8>, into output: inout String) {
        var lineLength = 0
        for (offset, byte) in zip(line.indices, line) {
            let isLast = offset == line.index(before: line.endIndex)
            let isWhitespace = byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
            let literal = (isVisibleASCII(byte) && byte != UInt8(ascii: "=")) || (isWhitespace && !isLast)
            let piece = literal ? String(UnicodeScalar(byte)) : escape(byte)
            // Keep room for the "=" of a soft break, unless this piece ends the line.
            let room = isLast ? maximumLineLength : maximumLineLength - 1
            if lineLength + piece.utf8.count > room {
                output += "=\r\n"
                lineLength = 0
            }
            output += piece
            lineLength += piece.utf8.count
        }
    }

    private static func escape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [UInt8(ascii: "="), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
    }
}
