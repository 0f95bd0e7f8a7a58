import CognateProtocol
import COpenSSL
import Foundation

/// Cryptographically secure randomness, injected so identifiers and codes are testable.
public protocol RandomSource: Sendable {
    func bytes(_ count: Int) -> [UInt8]
}

/// OpenSSL's CSPRNG (`RAND_bytes`: a NIST DRBG per thread, seeded and reseeded from the
/// kernel's `getrandom`).
public struct SystemRandom: RandomSource {
    public init() {}
    public func bytes(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            // One call, no system call: SystemRandomNumberGenerator went to the kernel for
            // every eight bytes, two dozen times per sign-in.
            precondition(count == 0 || RAND_bytes(buffer.baseAddress, Int32(count)) == 1, "RAND_bytes failed")
            initialized = count
        }
    }
}

extension RandomSource {
    /// A string of `count` characters drawn uniformly from `alphabet` (rejection sampling).
    public func string(_ count: Int, from alphabet: String) -> String {
        let symbols = Array(alphabet)
        precondition(symbols.count <= 256)
        let limit = 256 - (256 % symbols.count)
        var out = ""
        while out.count < count {
            for byte in bytes(count * 2) where Int(byte) < limit && out.count < count {
                out.append(symbols[Int(byte) % symbols.count])
            }
        }
        return out
    }

    /// A random (version 4) UUID in lower case, as Cognito writes `sub` and token ids.
    public func uuid() -> String {
        var b = bytes(16)
        b[6] = (b[6] & 0x0f) | 0x40
        b[8] = (b[8] & 0x3f) | 0x80
        let hex = Array(SRPEncoding.hexString(b).utf8)
        return String(unsafeUninitializedCapacity: 36) { out in
            var position = 0
            for (index, digit) in hex.enumerated() {
                if index == 8 || index == 12 || index == 16 || index == 20 {
                    out[position] = UInt8(ascii: "-")
                    position += 1
                }
                out[position] = digit
                position += 1
            }
            return position
        }
    }

    /// Six decimal digits, uniformly distributed (leading zeros kept).
    public func numericCode(digits: Int = 6) -> String { string(digits, from: "0123456789") }
}

enum Alphabet {
    static let lowerAlphanumeric = "abcdefghijklmnopqrstuvwxyz0123456789"
    static let alphanumeric = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
}
