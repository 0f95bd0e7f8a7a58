import CognateProtocol
import COpenSSL
import Foundation
import Synchronization

/// Cryptographically secure randomness, injected so identifiers and codes are testable.
public protocol RandomSource: Sendable {
    func bytes(_ count: Int) -> [UInt8]
}

/// OpenSSL's CSPRNG (`RAND_bytes`: a NIST DRBG per thread, seeded and reseeded from the
/// kernel's `getrandom`), drawn in blocks for small requests (``RandomBlocks``).
public struct SystemRandom: RandomSource {
    private static let blocks = RandomBlocks()

    public init() {}

    public func bytes(_ count: Int) -> [UInt8] {
        count <= RandomBlocks.largestDraw ? Self.blocks.draw(count) : RandomBlocks.fresh(count)
    }
}

/// Random bytes drawn from OpenSSL a block at a time. A `RAND_bytes` call costs about 2.7 µs
/// whatever it returns (the DRBG's locks, parameter look-ups, its cipher set up again, a fork
/// check), and a refresh draws three UUIDs, a sign-in a dozen identifiers: measured, 1.2% of a
/// refresh's CPU. Small draws are served from a 4 KiB block instead.
///
/// Contract: every byte of a block is handed out once, in order, under the lock, and zeroed
/// in the block as it is handed out (nothing drawn stays behind in memory); a block is drawn
/// when the one before is used up. The process never forks, so no two processes share a block.
final class RandomBlocks: Sendable {
    static let blockSize = 4096
    /// Draws up to this size (identifiers, codes, 48-byte session and refresh tokens) come
    /// from the block; larger ones go to OpenSSL directly.
    static let largestDraw = 64

    private struct Block {
        var bytes = [UInt8](repeating: 0, count: RandomBlocks.blockSize)
        var next = RandomBlocks.blockSize
    }

    private let block = Mutex(Block())

    func draw(_ count: Int) -> [UInt8] {
        precondition(count <= Self.largestDraw)
        return block.withLock { block in
            if block.next + count > Self.blockSize {
                block.bytes.withUnsafeMutableBufferPointer { Self.fill($0) }
                block.next = 0
            }
            let range = block.next..<(block.next + count)
            block.next += count
            defer { block.bytes.withUnsafeMutableBufferPointer { _ = $0[range].initialize(repeating: 0) } }
            return Array(block.bytes[range])
        }
    }

    static func fresh(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            fill(UnsafeMutableBufferPointer(rebasing: buffer[0..<count]))
            initialized = count
        }
    }

    private static func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        // One call, no system call: SystemRandomNumberGenerator went to the kernel for every
        // eight bytes, two dozen times per sign-in.
        precondition(buffer.isEmpty || RAND_bytes(buffer.baseAddress, Int32(buffer.count)) == 1, "RAND_bytes failed")
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
