/// A decoded CBOR data item from the subset WebAuthn uses (RFC 8949): integers, byte and text
/// strings, arrays, maps, booleans and null. No tags, floats or `undefined`.
public indirect enum CBORValue: Hashable, Sendable {
    /// Major type 0: a non-negative integer.
    case unsigned(UInt64)
    /// Major type 1: the integer `-1 - n` for the stored `n` (so `.negative(0)` is -1).
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    case map(CBORMap)
    case bool(Bool)
    case null

    /// The integer as an `Int`, or nil when it is not an integer or does not fit.
    public var intValue: Int? {
        switch self {
        case .unsigned(let n): return n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): return n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: return nil
        }
    }

    public var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    public var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    public var arrayValue: [CBORValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    public var mapValue: CBORMap? {
        if case .map(let map) = self { return map }
        return nil
    }

    /// The value for an integer key, as COSE keys and CTAP structures use.
    public static func int(_ value: Int) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }
}

/// A CBOR map in the order its entries were encoded. Keys are unique: the decoder refuses
/// duplicates, and so does `init(_:)`.
public struct CBORMap: Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        public let key: CBORValue
        public let value: CBORValue
    }

    public let entries: [Entry]

    /// Nil when two entries have equal keys.
    public init?(_ pairs: [(CBORValue, CBORValue)]) {
        var seen = Set<CBORValue>()
        for (key, _) in pairs where !seen.insert(key).inserted { return nil }
        entries = pairs.map { Entry(key: $0.0, value: $0.1) }
    }

    init(uniqueEntries: [Entry]) { entries = uniqueEntries }

    public var count: Int { entries.count }

    public subscript(key: CBORValue) -> CBORValue? {
        entries.first { $0.key == key }?.value
    }

    public subscript(text: String) -> CBORValue? { self[.text(text)] }

    public subscript(int: Int) -> CBORValue? { self[.int(int)] }
}
