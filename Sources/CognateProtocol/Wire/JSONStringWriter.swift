/// A JSON string, quoted and escaped, for both of the module's writers: runs of bytes that need
/// no escape (all of a token, nearly all of anything else) are copied whole, found eight bytes
/// at a time where they can be.
///
/// Contract: `"`, `\` and the control characters are always escaped, everything else is
/// written as its UTF-8. The styles differ only where JSON allows a choice, so that each writer
/// keeps the exact bytes it has always written.
enum JSONStringWriter {
    enum Style {
        /// As Foundation's `JSONEncoder` writes: `\/`, and `\b`, `\f` for those controls.
        case foundation
        /// `/` as it is, every control other than tab, newline and return as `\u00XX`
        /// (``JSONValue/jsonBytes``: JWT claims, trigger events).
        case compact
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func append(_ string: String, to bytes: inout [UInt8], style: Style) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var start = 0
            var index = 0
            while index < utf8.count {
                if index + 8 <= utf8.count, !needsEscape(ByteWord.load(utf8, at: index), style) {
                    index += 8
                    continue
                }
                let byte = utf8[index]
                if needsEscape(byte, style) {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                    appendEscaped(byte, style, to: &bytes)
                    start = index + 1
                }
                index += 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8, _ style: Style) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            || (style == .foundation && byte == UInt8(ascii: "/"))
    }

    /// Whether a byte of `word` needs an escape.
    @inline(__always)
    private static func needsEscape(_ word: UInt64, _ style: Style) -> Bool {
        ByteWord.hasByte(below: 0x20, in: word) || ByteWord.hasByte(UInt8(ascii: "\""), in: word)
            || ByteWord.hasByte(UInt8(ascii: "\\"), in: word)
            || (style == .foundation && ByteWord.hasByte(UInt8(ascii: "/"), in: word))
    }

    private static func appendEscaped(_ byte: UInt8, _ style: Style, to bytes: inout [UInt8]) {
        let backslash = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes += [backslash, byte]
        case 0x09: bytes += [backslash, UInt8(ascii: "t")]
        case 0x0A: bytes += [backslash, UInt8(ascii: "n")]
        case 0x0D: bytes += [backslash, UInt8(ascii: "r")]
        case 0x08 where style == .foundation: bytes += [backslash, UInt8(ascii: "b")]
        case 0x0C where style == .foundation: bytes += [backslash, UInt8(ascii: "f")]
        default:
            bytes += [backslash, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                      hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
        }
    }
}
