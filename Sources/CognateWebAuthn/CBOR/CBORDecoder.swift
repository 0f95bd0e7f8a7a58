/// A strict decoder for the CBOR subset WebAuthn uses (see `CBORValue`).
///
/// Refuses, with a `CBORError`: indefinite lengths, tags, floats and other simple values,
/// arguments not in their shortest form, invalid UTF-8, duplicate map keys, nesting deeper than
/// `maxDepth`, inputs larger than `maxInputBytes`, and lengths beyond the end of the input.
/// Map key order is not checked: authenticators in the field emit keys out of the CTAP2
/// canonical order, and the order carries no meaning once duplicates are refused.
public struct CBORDecoder: Sendable {
    /// How deep items may nest: the top-level item is at depth 1, an array's or map's items one
    /// deeper. WebAuthn's deepest structure (a certificate in an attestation statement) is at 4.
    public var maxDepth: Int
    /// The largest input accepted, in bytes.
    public var maxInputBytes: Int

    public init(maxDepth: Int = 16, maxInputBytes: Int = 256 * 1024) {
        self.maxDepth = maxDepth
        self.maxInputBytes = maxInputBytes
    }

    /// Decodes exactly one item that spans the whole input.
    public func decode(_ bytes: some Collection<UInt8>) throws(CBORError) -> CBORValue {
        let input = Array(bytes)
        let (value, end) = try decodePrefix(input)
        guard end == input.count else { throw .trailingBytes(offset: end) }
        return value
    }

    /// Decodes the item at the start of `bytes`, returning it and the number of bytes it spans;
    /// what follows is left to the caller (authenticator data holds a key then extensions).
    public func decodePrefix(_ bytes: [UInt8]) throws(CBORError) -> (value: CBORValue, length: Int) {
        guard bytes.count <= maxInputBytes else { throw .inputTooLarge(size: bytes.count, limit: maxInputBytes) }
        var reader = Reader(bytes: bytes, maxDepth: maxDepth)
        let value = try reader.item(depth: 1)
        return (value, reader.offset)
    }
}

private struct Reader {
    let bytes: [UInt8]
    let maxDepth: Int
    var offset = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    var remaining: Int { bytes.count - offset }

    mutating func byte() throws(CBORError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated(offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func take(_ count: Int) throws(CBORError) -> ArraySlice<UInt8> {
        guard count <= remaining else { throw .truncated(offset: offset) }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// The argument of an item's head: the value itself, a length or a count.
    mutating func argument(_ info: UInt8, at start: Int) throws(CBORError) -> UInt64 {
        let width: Int
        switch info {
        case 0..<24: return UInt64(info)
        case 24: width = 1
        case 25: width = 2
        case 26: width = 4
        case 27: width = 8
        case 31: throw .indefiniteLength(offset: start)
        default: throw .reservedAdditionalInformation(offset: start)
        }
        let value = try take(width).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let smallestForWidth: UInt64 = width == 1 ? 24 : 1 << (UInt64(width) * 4)
        guard value >= smallestForWidth else { throw .nonShortestEncoding(offset: start) }
        return value
    }

    /// A length or count that must fit in what remains, each element taking at least one byte.
    mutating func length(_ info: UInt8, at start: Int) throws(CBORError) -> Int {
        let value = try argument(info, at: start)
        guard value <= UInt64(remaining) else { throw .lengthTooLarge(offset: start) }
        return Int(value)
    }

    mutating func item(depth: Int) throws(CBORError) -> CBORValue {
        let start = offset
        guard depth <= maxDepth else { throw .nestingTooDeep(offset: start) }
        let head = try byte()
        let major = head >> 5
        let info = head & 0x1f
        switch major {
        case 0:
            return .unsigned(try argument(info, at: start))
        case 1:
            return .negative(try argument(info, at: start))
        case 2:
            return .bytes(Array(try take(try length(info, at: start))))
        case 3:
            let raw = try take(try length(info, at: start))
            guard let text = String(validating: raw, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
            return .text(text)
        case 4:
            let count = try length(info, at: start)
            var items: [CBORValue] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try item(depth: depth + 1)) }
            return .array(items)
        case 5:
            let count = try length(info, at: start)
            var entries: [CBORMap.Entry] = []
            entries.reserveCapacity(count)
            var keys = Set<CBORValue>()
            for _ in 0..<count {
                let keyStart = offset
                let key = try item(depth: depth + 1)
                guard keys.insert(key).inserted else { throw .duplicateMapKey(offset: keyStart) }
                entries.append(CBORMap.Entry(key: key, value: try item(depth: depth + 1)))
            }
            return .map(CBORMap(uniqueEntries: entries))
        case 6:
            throw .unsupportedTag(offset: start)
        default:
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 31: throw .indefiniteLength(offset: start)
            default: throw .unsupportedSimpleValue(offset: start)
            }
        }
    }
}
