/// Questions about eight bytes at once, for scans that skip the bytes needing no attention
/// (a string's plain text) a word at a time.
///
/// Contract: each test is exact for the whole word — true if and only if some byte of it
/// answers (the well-known "has a zero byte" and "has a byte less than n" word tests); which
/// byte it is, the caller finds byte by byte.
enum ByteWord {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `offset` (which must leave eight in `bytes`), in any order.
    @inline(__always)
    static func load(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
        UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    /// Whether a byte of `word` is below `bound` (at most 128).
    @inline(__always)
    static func hasByte(below bound: UInt8, in word: UInt64) -> Bool {
        (word &- ones &* UInt64(bound)) & ~word & highs != 0
    }

    /// Whether a byte of `word` is `value`.
    @inline(__always)
    static func hasByte(_ value: UInt8, in word: UInt64) -> Bool {
        hasByte(below: 1, in: word ^ (ones &* UInt64(value)))
    }

    /// Whether a byte of `word` is DEL (0x7F) or above (not ASCII). Adding one to each byte
    /// turns 0x7F into 0x80; a carry comes only out of 0xFF, which has its high bit already.
    @inline(__always)
    static func hasByteFromDelete(in word: UInt64) -> Bool {
        (word | (word &+ ones)) & highs != 0
    }
}
