import CognateProtocol
import Foundation

/// Cryptographically secure randomness, injected so identifiers and codes are testable.
public protocol RandomSource: Sendable {
    func bytes(_ count: Int) -> [UInt8]
}

/// The operating system's CSPRNG (`getrandom` on Linux, `SecRandomCopyBytes` on Apple platforms).
public struct SystemRandom: RandomSource {
    public init() {}
    public func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8]()
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {  // eight bytes per call to the system
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
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
        let hex = SRPEncoding.hexString(b)
        let chars = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }.joined(separator: "-")
    }

    /// Six decimal digits, uniformly distributed (leading zeros kept).
    public func numericCode(digits: Int = 6) -> String { string(digits, from: "0123456789") }
}

enum Alphabet {
    static let lowerAlphanumeric = "abcdefghijklmnopqrstuvwxyz0123456789"
    static let alphanumeric = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
}
