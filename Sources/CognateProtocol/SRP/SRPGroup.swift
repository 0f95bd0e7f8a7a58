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
        var hex = hexString(trimmed(magnitude))
        while hex.hasPrefix("0") && hex.count > 1 { hex.removeFirst() }
        return hex.isEmpty ? "0" : hex
    }

    public static func hexString<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses hex of any case and length (an odd length gets a leading zero); nil if not hex.
    public static func bytes(fromHex hex: String) -> [UInt8]? {
        var nibbles = [UInt8]()
        nibbles.reserveCapacity(hex.utf8.count + 1)
        if hex.utf8.count % 2 == 1 { nibbles.append(0) }
        for c in hex.utf8 {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibbles.append(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibbles.append(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibbles.append(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        return stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
    }
}
