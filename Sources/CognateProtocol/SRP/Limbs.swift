/// Unsigned integers as little-endian arrays of 64-bit limbs (`limbs[0]` is the least
/// significant), with the few conversions and plain (non-modular) operations the SRP client
/// needs besides its modular arithmetic.
///
/// Contract: functions accept arrays of any length, with or without high zero limbs, and treat
/// them as the integer they denote; results may carry high zero limbs.
enum Limbs {
    /// The integer of big-endian magnitude bytes, in exactly `count` limbs (nil when it does not fit).
    static func fromBigEndian<Bytes: Collection<UInt8>>(_ bytes: Bytes, count: Int) -> [UInt64]? {
        let significant = bytes.drop(while: { $0 == 0 })
        guard significant.count <= count * 8 else { return nil }
        var limbs = [UInt64](repeating: 0, count: count)
        var shift: UInt64 = 0
        var index = 0
        for byte in significant.reversed() {
            limbs[index] |= UInt64(byte) << shift
            shift += 8
            if shift == 64 {
                shift = 0
                index += 1
            }
        }
        return limbs
    }

    /// The integer of big-endian magnitude bytes, in as many limbs as it needs (at least one).
    static func fromBigEndian<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt64] {
        let significant = bytes.drop(while: { $0 == 0 })
        return fromBigEndian(significant, count: max(1, (significant.count + 7) / 8))!
    }

    /// Big-endian bytes of exactly `byteCount` bytes (the integer must fit).
    static func bigEndianBytes(_ limbs: [UInt64], byteCount: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        for index in 0..<byteCount {
            let limb = index / 8
            guard limb < limbs.count else { break }
            bytes[byteCount - 1 - index] = UInt8(truncatingIfNeeded: limbs[limb] >> (UInt64(index % 8) * 8))
        }
        return bytes
    }

    /// Whether every limb is zero.
    static func isZero(_ limbs: [UInt64]) -> Bool { limbs.allSatisfy { $0 == 0 } }

    /// `a · b`, in `a.count + b.count` limbs (schoolbook; for the short SRP exponents only).
    static func multiply(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var product = [UInt64](repeating: 0, count: a.count + b.count)
        for i in a.indices {
            var carry: UInt64 = 0
            for j in b.indices {
                let (high, low) = a[i].multipliedFullWidth(by: b[j])
                let (sum, overflow1) = low.addingReportingOverflow(product[i + j])
                let (total, overflow2) = sum.addingReportingOverflow(carry)
                product[i + j] = total
                carry = high &+ (overflow1 ? 1 : 0) &+ (overflow2 ? 1 : 0)
            }
            product[i + b.count] = carry
        }
        return product
    }

    /// `a + b`, in `max(a.count, b.count) + 1` limbs.
    static func add(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        let count = max(a.count, b.count)
        var sum = [UInt64](repeating: 0, count: count + 1)
        var carry = false
        for index in 0..<count {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            let (partial, overflow1) = x.addingReportingOverflow(y)
            let (total, overflow2) = partial.addingReportingOverflow(carry ? 1 : 0)
            sum[index] = total
            carry = overflow1 || overflow2
        }
        sum[count] = carry ? 1 : 0
        return sum
    }
}
