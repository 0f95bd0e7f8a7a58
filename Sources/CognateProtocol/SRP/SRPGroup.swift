import Crypto
import Foundation

/// The SRP-6a group Cognito uses: the 3072-bit MODP prime of RFC 3526 §4 with generator 2,
/// and the multiplier `k = H(PAD(N) ‖ PAD(g))`.
public enum SRPGroup {
    public static let primeHex =
        "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
        + "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
        + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
        + "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
        + "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
        + "15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7"
        + "ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C"
        + "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF"

    /// `N`, 384 big-endian bytes.
    public static let prime: [UInt8] = SRPEncoding.bytes(fromHex: primeHex)!

    public static let generator: UInt8 = 2

    /// `k = H(PAD(N) ‖ PAD(g))`, 32 bytes.
    public static let multiplier: [UInt8] = SRPDerivation.hash(SRPEncoding.pad(prime) + SRPEncoding.pad([generator]))

    /// Longest `SRP_A` accepted in hex: the size of `N` plus a margin for a leading zero byte.
    public static let maximumPublicValueHexLength = 770
}

/// Byte and hex encodings as Cognito's SRP uses them.
public enum SRPEncoding {
    /// `PAD(n)`: the minimal big-endian two's-complement encoding of a non-negative integer given
    /// as big-endian magnitude bytes (Java's `BigInteger.toByteArray()`): leading zero bytes are
    /// dropped, then one zero byte is prepended if the top bit is set. Zero encodes as `[0]`.
    public static func pad<Bytes: Collection<UInt8>>(_ magnitude: Bytes) -> [UInt8] {
        let trimmed = magnitude.drop(while: { $0 == 0 })
        guard let first = trimmed.first else { return [0] }
        return first >= 0x80 ? [0] + trimmed : Array(trimmed)
    }

    /// Magnitude bytes without leading zeros (zero is `[]`).
    public static func trimmed<Bytes: Collection<UInt8>>(_ magnitude: Bytes) -> [UInt8] {
        Array(magnitude.drop(while: { $0 == 0 }))
    }

    /// Lower-case hex of an integer without leading zeros ("0" for zero), as `SRP_A`/`SRP_B` travel.
    public static func minimalHex<Bytes: Collection<UInt8>>(_ magnitude: Bytes) -> String {
        let hex = hexString(trimmed(magnitude))
        guard let first = hex.utf8.first else { return "0" }
        return first == UInt8(ascii: "0") ? String(hex.utf8.dropFirst())! : hex
    }

    /// Lower-case hex, two digits per byte, written straight into the string's storage.
    public static func hexString<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        bytes.withContiguousStorageIfAvailable { hexString(UnsafeRawBufferPointer($0)) } ?? hexString(Array(bytes))
    }

    private static func hexString(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            for (index, byte) in bytes.enumerated() {
                out[2 * index] = hexDigit(byte >> 4)
                out[2 * index + 1] = hexDigit(byte & 0x0f)
            }
            return bytes.count * 2
        }
    }

    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// Parses hex of any case and length (an odd length gets a leading zero); nil if not hex.
    public static func bytes(fromHex hex: String) -> [UInt8]? {
        var hex = hex
        return hex.withUTF8 { digits -> [UInt8]? in
            let odd = digits.count % 2
            let count = (digits.count + odd) / 2
            var valid = true
            let bytes = [UInt8](unsafeUninitializedCapacity: count) { bytes, initialized in
                var high: UInt8 = 0, position = odd  // an odd length starts with the low nibble of a zero byte
                for c in digits {
                    guard let nibble = nibbleValue(c) else { valid = false; break }
                    if position % 2 == 0 {
                        high = nibble << 4
                    } else {
                        bytes[position / 2] = high | nibble
                    }
                    position += 1
                }
                initialized = valid ? count : 0
            }
            return valid ? bytes : nil
        }
    }

    @inline(__always)
    private static func nibbleValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
