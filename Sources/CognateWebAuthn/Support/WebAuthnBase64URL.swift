/// Base64url without padding (RFC 4648 §5), the encoding WebAuthn's JSON forms use for every
/// binary value (challenges, credential IDs, the responses' byte fields).
///
/// Decoding is strict: only the URL-safe alphabet, no `=` padding, no whitespace, and the unused
/// low bits of the last symbol must be zero, so that every byte string has exactly one encoding
/// (a challenge compared as text could otherwise be sent in several spellings).
public enum WebAuthnBase64URL {
    private static let symbols = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func sextet(_ symbol: UInt8) -> UInt32? {
        switch symbol {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(symbol - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt32(symbol - UInt8(ascii: "a") + 26)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(symbol - UInt8(ascii: "0") + 52)
        case UInt8(ascii: "-"): return 62
        case UInt8(ascii: "_"): return 63
        default: return nil
        }
    }

    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in bytes {
            accumulator = accumulator << 8 | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                text.append(symbols[Int(accumulator >> UInt32(bits) & 0x3f)])
            }
        }
        if bits > 0 { text.append(symbols[Int(accumulator << UInt32(6 - bits) & 0x3f)]) }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes `text` encodes, or nil if it is not strict unpadded base64url.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for symbol in utf8 {
            guard let value = sextet(symbol) else { return nil }
            accumulator = (accumulator << 6 | value) & 0xfff
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return bytes
    }
}
