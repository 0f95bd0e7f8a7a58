import Foundation

/// A request body parsed for ``WireJSONDecoder``: its structure, with strings and numbers left
/// as written until a member reads them (``WireJSONSource``).
///
/// Contract: accepts exactly what Foundation's `JSONDecoder` accepts, so a request reads the
/// same either way (the differential tests hold the two side by side):
/// - RFC 8259 structure, with a UTF-8 byte order mark skipped and a trailing comma allowed
///   after the last element of a non-empty array or object;
/// - at most 512 levels of arrays and objects;
/// - a string is checked (UTF-8, escapes, no control characters) only when it is read: a
///   value when a member reads it, an object's names when the object is read as a structure
///   or map. Until then it ends at the first quote not escaped, where a backslash escapes the
///   byte after it and `\u` the four after that (none of them a quote);
/// - a number is any run of `0-9 . e E + -` that starts with a digit or `-`, checked against
///   RFC 8259's grammar only when a member reads it (``WireJSONNumber``);
/// - of two members with one name, the first counts.
/// Everything else throws `DecodingError.dataCorrupted` at the document's root. Bodies are
/// UTF-8, as every AWS SDK sends them: Foundation would also read UTF-16 and UTF-32 ones.
enum WireJSON {
    case null
    case bool(Bool)
    case number(Range<Int>)
    case string(WireJSONText)
    case array([WireJSON])
    case object(WireJSONObject)

    static let maximumDepth = 512

    /// The document of `source` (the whole of it: only whitespace may follow the value).
    static func parse(_ source: WireJSONSource) throws -> WireJSON {
        try source.bytes.withUnsafeBufferPointer { bytes in
            var parser = WireJSONParser(bytes: bytes)
            return try parser.document()
        }
    }

    static func notValidJSON() -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The given data was not valid JSON."))
    }
}

/// A string's bytes between its quotes, as written.
struct WireJSONText {
    let range: Range<Int>
    /// Whether a backslash occurs in it (else its bytes are its text, once checked).
    let escaped: Bool
    /// Whether all its bytes are printable ASCII (then they are its text as they are).
    let printable: Bool
}

/// An object's members in document order, names as written.
struct WireJSONObject {
    var names: [WireJSONText] = []
    var values: [WireJSON] = []
}

/// A request body's bytes, and the strings and numbers read from them.
final class WireJSONSource {
    let bytes: [UInt8]

    init(_ data: Data) { bytes = Array(data) }

    func string(_ text: WireJSONText) throws -> String {
        try bytes.withUnsafeBufferPointer { all in
            let bytes = UnsafeBufferPointer(rebasing: all[text.range])
            if text.printable { return String(decoding: bytes, as: UTF8.self) }
            guard text.escaped else {
                guard !bytes.contains(where: { $0 < 0x20 }), let string = Self.utf8String(bytes) else {
                    throw WireJSON.notValidJSON()
                }
                return string
            }
            return try Self.unescaped(bytes)
        }
    }

    func number(_ range: Range<Int>) -> WireJSONNumber {
        WireJSONNumber(text: String(decoding: bytes[range], as: UTF8.self))
    }

    /// The text of `bytes`, nil unless they are well-formed UTF-8.
    private static func utf8String(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if !bytes.allSatisfy({ $0 < 0x80 }) {
            var parser = Unicode.UTF8.ForwardParser()
            var iterator = bytes.makeIterator()
            while true {
                switch parser.parseScalar(from: &iterator) {
                case .valid: continue
                case .emptyInput: return String(decoding: bytes, as: UTF8.self)
                case .error: return nil
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func unescaped(_ bytes: UnsafeBufferPointer<UInt8>) throws -> String {
        var unescaped: [UInt8] = []
        unescaped.reserveCapacity(bytes.count)
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            guard byte == UInt8(ascii: "\\") else {
                guard byte >= 0x20 else { throw WireJSON.notValidJSON() }
                unescaped.append(byte)
                continue
            }
            guard position < bytes.count else { throw WireJSON.notValidJSON() }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(escape)
            case UInt8(ascii: "b"): unescaped.append(0x08)
            case UInt8(ascii: "f"): unescaped.append(0x0C)
            case UInt8(ascii: "n"): unescaped.append(0x0A)
            case UInt8(ascii: "r"): unescaped.append(0x0D)
            case UInt8(ascii: "t"): unescaped.append(0x09)
            case UInt8(ascii: "u"): unescaped.append(contentsOf: String(try escapedScalar(bytes, &position)).utf8)
            default: throw WireJSON.notValidJSON()
            }
        }
        guard let text = unescaped.withUnsafeBufferPointer(utf8String) else { throw WireJSON.notValidJSON() }
        return text
    }

    /// The scalar of a `\u` escape (`position` after its `\u`), with the low half of a
    /// surrogate pair.
    private static func escapedScalar(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int) throws -> Unicode.Scalar {
        let unit = try hexUnit(bytes, &position)
        if (0xD800..<0xDC00).contains(unit) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
            else { throw WireJSON.notValidJSON() }
            position += 2
            let low = try hexUnit(bytes, &position)
            guard (0xDC00..<0xE000).contains(low),
                  let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            else { throw WireJSON.notValidJSON() }
            return scalar
        }
        guard let scalar = Unicode.Scalar(unit) else { throw WireJSON.notValidJSON() }
        return scalar
    }

    private static func hexUnit(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int) throws -> UInt32 {
        guard position + 4 <= bytes.count else { throw WireJSON.notValidJSON() }
        var unit: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8 = switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: throw WireJSON.notValidJSON()
            }
            unit = unit << 4 | UInt32(digit)
            position += 1
        }
        return unit
    }
}

/// A number as written. Read as an integer, it must be one exactly (`1.0` and `1e2` are;
/// `1.5` is not) and fit; as a floating-point number, it must be finite and not a non-zero
/// value rounded to zero. Text outside RFC 8259's grammar, or a value that does not fit, throws
/// `dataCorrupted` at the root, as Foundation does.
struct WireJSONNumber {
    let text: String

    func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
        try checkGrammar()
        if !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            guard let value = Integer(text) else { throw WireJSON.notValidJSON() }
            return value
        }
        guard let double = Double(text), double.isFinite, let value = Integer(exactly: double) else {
            throw WireJSON.notValidJSON()
        }
        return value
    }

    func double() throws -> Double {
        try checkGrammar()
        guard let value = Double(text), value.isFinite else { throw WireJSON.notValidJSON() }
        if value == 0, Self.hasNonZeroDigit(beforeExponentOf: text) { throw WireJSON.notValidJSON() }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private func checkGrammar() throws {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix(while: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }).count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            throw WireJSON.notValidJSON()
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            if digits() == 0 { throw WireJSON.notValidJSON() }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            if digits() == 0 { throw WireJSON.notValidJSON() }
        }
        if !bytes.isEmpty { throw WireJSON.notValidJSON() }
    }

    private static func hasNonZeroDigit(beforeExponentOf text: String) -> Bool {
        text.utf8.prefix(while: { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") })
            .contains { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }
    }
}

/// Reads one document's structure from UTF-8 bytes (``WireJSON``'s contract).
private struct WireJSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    mutating func document() throws -> WireJSON {
        let value = try self.value()
        skipWhitespace()
        guard position == bytes.count else { throw WireJSON.notValidJSON() }
        return value
    }

    private mutating func value() throws -> WireJSON {
        skipWhitespace()
        guard position < bytes.count else { throw WireJSON.notValidJSON() }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(number())
        default: throw WireJSON.notValidJSON()
        }
    }

    private mutating func object() throws -> WireJSON {
        var object = WireJSONObject()
        try nested(closedBy: UInt8(ascii: "}")) { parser in
            parser.skipWhitespace()
            guard parser.position < parser.bytes.count, parser.bytes[parser.position] == UInt8(ascii: "\"") else {
                throw WireJSON.notValidJSON()
            }
            object.names.append(try parser.string())
            parser.skipWhitespace()
            guard parser.consume(UInt8(ascii: ":")) else { throw WireJSON.notValidJSON() }
            object.values.append(try parser.value())
        }
        return .object(object)
    }

    private mutating func array() throws -> WireJSON {
        var elements: [WireJSON] = []
        try nested(closedBy: UInt8(ascii: "]")) { parser in elements.append(try parser.value()) }
        return .array(elements)
    }

    /// Steps into an array or object (at its opening byte) and reads its members or elements
    /// with `readOne` up to `close`: separated by commas, a trailing comma allowed after the
    /// last, none when empty.
    private mutating func nested(closedBy close: UInt8, _ readOne: (inout WireJSONParser) throws -> Void) throws {
        depth += 1
        guard depth <= WireJSON.maximumDepth else { throw WireJSON.notValidJSON() }
        position += 1
        skipWhitespace()
        if !consume(close) {
            while true {
                try readOne(&self)
                skipWhitespace()
                if consume(close) { break }
                guard consume(UInt8(ascii: ",")) else { throw WireJSON.notValidJSON() }
                skipWhitespace()
                if consume(close) { break }
            }
        }
        depth -= 1
    }

    /// A string's extent: up to the first quote not escaped (checked when read).
    private mutating func string() throws -> WireJSONText {
        position += 1  // the opening quote
        let start = position
        var escaped = false
        var printable = true
        while position < bytes.count {
            // Eight printable bytes at a time that are neither a quote nor a backslash (all of
            // a token); anything else is looked at byte by byte below.
            if position + 8 <= bytes.count, Self.isPlainPrintable(ByteWord.load(bytes, at: position)) {
                position += 8
                continue
            }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                defer { position += 1 }
                return WireJSONText(range: start..<position, escaped: escaped, printable: printable && !escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
                    position += 2
                    continue
                }
                // The four bytes of a `\u` escape: hex digits are checked when it is read, but
                // none may be a quote.
                guard position + 6 <= bytes.count,
                      !bytes[(position + 2)..<(position + 6)].contains(UInt8(ascii: "\""))
                else { throw WireJSON.notValidJSON() }
                position += 6
            case 0x20..<0x7F:
                position += 1
            default:
                printable = false
                position += 1
            }
        }
        throw WireJSON.notValidJSON()
    }

    /// Whether all eight bytes of `word` are in 0x20..<0x7F and none is `"` or `\`.
    @inline(__always)
    private static func isPlainPrintable(_ word: UInt64) -> Bool {
        !(ByteWord.hasByte(below: 0x20, in: word) || ByteWord.hasByteFromDelete(in: word)
            || ByteWord.hasByte(UInt8(ascii: "\""), in: word) || ByteWord.hasByte(UInt8(ascii: "\\"), in: word))
    }

    private mutating func number() -> Range<Int> {
        let start = position
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
                 UInt8(ascii: "+"), UInt8(ascii: "-"):
                position += 1
            default:
                return start..<position
            }
        }
        return start..<position
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw WireJSON.notValidJSON() }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { throw WireJSON.notValidJSON() }
        position += count
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): position += 1
            default: return
            }
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }
}
