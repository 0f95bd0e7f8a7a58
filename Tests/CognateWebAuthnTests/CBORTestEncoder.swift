@testable import CognateWebAuthn

/// Test-only CBOR encoding (shortest form, entries in the order given), to build inputs the
/// vectors do not contain: keys with wrong parameters, statements with a member changed.
enum CBORTestEncoder {
    static func encode(_ value: CBORValue) -> [UInt8] {
        switch value {
        case .unsigned(let n): return head(0, n)
        case .negative(let n): return head(1, n)
        case .bytes(let bytes): return head(2, UInt64(bytes.count)) + bytes
        case .text(let text): return head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let items): return head(4, UInt64(items.count)) + items.flatMap(encode)
        case .map(let map):
            return head(5, UInt64(map.count)) + map.entries.flatMap { encode($0.key) + encode($0.value) }
        case .bool(let flag): return [flag ? 0xf5 : 0xf4]
        case .null: return [0xf6]
        }
    }

    static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24..<0x100: return [type | 24, UInt8(argument)]
        case 0x100..<0x10000: return [type | 25] + bigEndian(argument, bytes: 2)
        case 0x10000..<0x1_0000_0000: return [type | 26] + bigEndian(argument, bytes: 4)
        default: return [type | 27] + bigEndian(argument, bytes: 8)
        }
    }

    static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (UInt64($0) * 8)) }
    }

    /// A map from pairs whose keys the test knows to be distinct.
    static func map(_ pairs: [(CBORValue, CBORValue)]) -> CBORValue { .map(CBORMap(pairs)!) }

    /// `map` with the entry for `key` replaced by `value`, or removed when `value` is nil.
    static func replacing(_ key: CBORValue, with value: CBORValue?, in map: CBORMap) -> CBORValue {
        var pairs = map.entries.map { ($0.key, $0.value) }.filter { $0.0 != key }
        if let value { pairs.append((key, value)) }
        return .map(CBORMap(pairs)!)
    }
}
