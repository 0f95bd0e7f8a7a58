/// Arithmetic modulo one fixed odd modulus `N` in Montgomery form, in portable Swift on 64-bit
/// limbs (``Limbs``): an element `x` is held as `x·R mod N` with `R = 2^(64·limbCount)`, so a
/// modular product costs two passes of `limbCount²` word multiplications and no division.
///
/// Contract: every element a method takes or returns is in Montgomery form, fully reduced
/// (`< N`), in exactly ``limbCount`` limbs. Multiplication, squaring, addition, subtraction and
/// ``power(_:exponent:)`` run in time independent of the values (no branches or memory accesses
/// that depend on them); only the exponent's count of significant limbs shows in the time.
struct MontgomeryField: Sendable {
    let limbCount: Int
    let modulus: [UInt64]
    /// `−N⁻¹ mod 2^64`.
    let inverse: UInt64
    /// `R² mod N`: multiplying by it converts into Montgomery form.
    let rSquared: [UInt64]
    /// `1` in Montgomery form (`R mod N`).
    let one: [UInt64]
    /// `0` in Montgomery form.
    var zero: [UInt64] { [UInt64](repeating: 0, count: limbCount) }

    /// - Parameter modulus: big-endian bytes of an odd modulus greater than 1.
    init(modulus bytes: [UInt8]) {
        let modulus = Limbs.fromBigEndian(bytes)
        precondition(modulus[0] & 1 == 1 && (modulus.count > 1 || modulus[0] > 1), "the modulus must be odd and > 1")
        limbCount = modulus.count
        self.modulus = modulus
        // Newton's iteration doubles the correct low bits of N⁻¹ mod 2^64 each step (1 → 64 in 6).
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- modulus[0] &* inverse) }
        self.inverse = 0 &- inverse
        // R mod N and R² mod N by doubling 1 (set-up only; not constant-time, N is public).
        var value = [UInt64](repeating: 0, count: modulus.count)
        value[0] = 1
        for _ in 0..<(64 * modulus.count) { Self.double(&value, modulus: modulus) }
        one = value
        for _ in 0..<(64 * modulus.count) { Self.double(&value, modulus: modulus) }
        rSquared = value
    }

    // MARK: - Conversions

    /// The Montgomery form of the integer of big-endian `bytes` reduced mod N (any length).
    func element<Bytes: Collection<UInt8>>(fromBigEndian bytes: Bytes) -> [UInt64] {
        var limbs = Limbs.fromBigEndian(bytes)
        limbs += [UInt64](repeating: 0, count: (limbCount - limbs.count % limbCount) % limbCount)
        var result = zero
        // Chunks of limbCount limbs (digits base R), most significant first:
        // result ← result·R + chunk, all in Montgomery form.
        for start in stride(from: limbs.count - limbCount, through: 0, by: -limbCount) {
            let chunk = Array(limbs[start..<(start + limbCount)])
            result = add(multiply(result, rSquared), multiply(chunk, rSquared))
        }
        return result
    }

    /// The integer an element stands for (`< N`), as `limbCount` limbs.
    func integer(_ element: [UInt64]) -> [UInt64] {
        var unit = zero
        unit[0] = 1
        return multiply(element, unit)
    }

    /// The integer an element stands for, as big-endian bytes of the modulus's byte length.
    func bigEndianBytes(_ element: [UInt64], byteCount: Int) -> [UInt8] {
        Limbs.bigEndianBytes(integer(element), byteCount: byteCount)
    }

    // MARK: - Operations

    /// `a·b` (for Montgomery forms: `a·b·R⁻¹ mod N`). Also correct for any `a, b < R` with
    /// `a·b < N·R`, which converts unreduced integers: `multiply(x, rSquared)`.
    func multiply(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var result = zero
        var scratch = [UInt64](repeating: 0, count: limbCount + 2)
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                modulus.withUnsafeBufferPointer { modulus in
                    result.withUnsafeMutableBufferPointer { result in
                        scratch.withUnsafeMutableBufferPointer { scratch in
                            Self.multiply(
                                a.baseAddress!, b.baseAddress!, into: result.baseAddress!, scratch: scratch.baseAddress!,
                                modulus: modulus.baseAddress!, inverse: inverse, count: limbCount)
                        }
                    }
                }
            }
        }
        return result
    }

    /// `a + b mod N`.
    func add(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var sum = zero
        var carry: UInt64 = 0
        for index in 0..<limbCount {
            let (partial, overflow1) = a[index].addingReportingOverflow(b[index])
            let (total, overflow2) = partial.addingReportingOverflow(carry)
            sum[index] = total
            carry = bit(overflow1) | bit(overflow2)
        }
        // Subtract N when the sum carried out or is at least N.
        var reduced = zero
        var borrow: UInt64 = 0
        for index in 0..<limbCount {
            let (partial, underflow1) = sum[index].subtractingReportingOverflow(modulus[index])
            let (total, underflow2) = partial.subtractingReportingOverflow(borrow)
            reduced[index] = total
            borrow = bit(underflow1) | bit(underflow2)
        }
        let keepReduced = 0 &- (carry | (1 ^ borrow))
        for index in 0..<limbCount { sum[index] = (reduced[index] & keepReduced) | (sum[index] & ~keepReduced) }
        return sum
    }

    /// `a − b mod N`.
    func subtract(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var difference = zero
        var borrow: UInt64 = 0
        for index in 0..<limbCount {
            let (partial, underflow1) = a[index].subtractingReportingOverflow(b[index])
            let (total, underflow2) = partial.subtractingReportingOverflow(borrow)
            difference[index] = total
            borrow = bit(underflow1) | bit(underflow2)
        }
        // Add N back when the subtraction borrowed.
        let addBack = 0 &- borrow
        var carry: UInt64 = 0
        for index in 0..<limbCount {
            let (partial, overflow1) = difference[index].addingReportingOverflow(modulus[index] & addBack)
            let (total, overflow2) = partial.addingReportingOverflow(carry)
            difference[index] = total
            carry = bit(overflow1) | bit(overflow2)
        }
        return difference
    }

    /// Whether an element is zero (i.e. its integer is a multiple of N).
    func isZero(_ element: [UInt64]) -> Bool { Limbs.isZero(element) }

    /// `base^exponent`, the exponent given as limbs (``Limbs``). A fixed 4-bit window over the
    /// exponent's significant limbs, with every table entry read at every step: the time
    /// depends on the number of significant limbs only.
    func power(_ base: [UInt64], exponent: [UInt64]) -> [UInt64] {
        var significant = exponent.count
        while significant > 0 && exponent[significant - 1] == 0 { significant -= 1 }
        let n = limbCount
        let windowBits = 4
        let tableSize = 1 << windowBits
        // One allocation for everything: table (16·n), accumulator (n), selected entry (n), scratch (n+2).
        var memory = [UInt64](repeating: 0, count: tableSize * n + 2 * n + n + 2)
        return memory.withUnsafeMutableBufferPointer { memory in
            let table = memory.baseAddress!
            let accumulator = table + tableSize * n
            let selected = accumulator + n
            let scratch = selected + n
            modulus.withUnsafeBufferPointer { modulus in
                let modulus = modulus.baseAddress!
                for index in 0..<n {
                    table[index] = one[index]
                    table[n + index] = base[index]
                    accumulator[index] = one[index]
                }
                for entry in 2..<tableSize {
                    Self.multiply(
                        table + (entry - 1) * n, table + n, into: table + entry * n, scratch: scratch,
                        modulus: modulus, inverse: inverse, count: n)
                }
                for limb in stride(from: significant - 1, through: 0, by: -1) {
                    for window in stride(from: 64 / windowBits - 1, through: 0, by: -1) {
                        for _ in 0..<windowBits {
                            Self.multiply(
                                accumulator, accumulator, into: accumulator, scratch: scratch,
                                modulus: modulus, inverse: inverse, count: n)
                        }
                        let digit = (exponent[limb] >> UInt64(window * windowBits)) & UInt64(tableSize - 1)
                        Self.select(from: table, entries: tableSize, index: digit, into: selected, count: n)
                        Self.multiply(
                            accumulator, selected, into: accumulator, scratch: scratch,
                            modulus: modulus, inverse: inverse, count: n)
                    }
                }
            }
            return Array(UnsafeBufferPointer(start: accumulator, count: n))
        }
    }

    // MARK: - Kernels

    /// Montgomery multiplication, CIOS (coarsely integrated operand scanning): `result = a·b·R⁻¹
    /// mod N`, fully reduced for `a·b < N·R`. `scratch` has `count + 2` limbs; `result` may be
    /// `a` or `b`. No branch or address depends on the values.
    @inline(__always)
    static func multiply(
        _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>, into result: UnsafeMutablePointer<UInt64>,
        scratch t: UnsafeMutablePointer<UInt64>, modulus: UnsafePointer<UInt64>, inverse: UInt64, count n: Int
    ) {
        t.update(repeating: 0, count: n + 2)
        for i in 0..<n {
            // t += a[i]·b
            let ai = a[i]
            var carry: UInt64 = 0
            for j in 0..<n {
                let (high, low) = ai.multipliedFullWidth(by: b[j])
                let (sum, overflow1) = low.addingReportingOverflow(t[j])
                let (total, overflow2) = sum.addingReportingOverflow(carry)
                t[j] = total
                carry = high &+ bit(overflow1) &+ bit(overflow2)
            }
            let (top, topOverflow) = t[n].addingReportingOverflow(carry)
            t[n] = top
            t[n + 1] = bit(topOverflow)
            // t = (t + m·N) / 2^64, with m chosen so the low limb vanishes.
            let m = t[0] &* inverse
            let (high0, low0) = m.multipliedFullWidth(by: modulus[0])
            let (_, overflow0) = low0.addingReportingOverflow(t[0])
            carry = high0 &+ bit(overflow0)
            for j in 1..<max(n, 1) {
                let (high, low) = m.multipliedFullWidth(by: modulus[j])
                let (sum, overflow1) = low.addingReportingOverflow(t[j])
                let (total, overflow2) = sum.addingReportingOverflow(carry)
                t[j - 1] = total
                carry = high &+ bit(overflow1) &+ bit(overflow2)
            }
            let (shifted, shiftedOverflow) = t[n].addingReportingOverflow(carry)
            t[n - 1] = shifted
            t[n] = t[n + 1] &+ bit(shiftedOverflow)
        }
        // t < 2N: subtract N unless that borrows (and t has no bit above n limbs).
        var borrow: UInt64 = 0
        for j in 0..<n {
            let (partial, underflow1) = t[j].subtractingReportingOverflow(modulus[j])
            let (total, underflow2) = partial.subtractingReportingOverflow(borrow)
            result[j] = total
            borrow = bit(underflow1) | bit(underflow2)
        }
        let keepDifference = 0 &- (t[n] | (1 ^ borrow))
        for j in 0..<n { result[j] = (result[j] & keepDifference) | (t[j] & ~keepDifference) }
    }

    /// Copies `table[index]` into `result`, reading every entry (constant-time lookup).
    @inline(__always)
    static func select(
        from table: UnsafePointer<UInt64>, entries: Int, index: UInt64, into result: UnsafeMutablePointer<UInt64>,
        count n: Int
    ) {
        result.update(repeating: 0, count: n)
        for entry in 0..<entries {
            // all ones when entry == index: (x − 1) >> 63 is 1 only for x == 0 (x < 2^63).
            let difference = UInt64(entry) ^ index
            let mask = 0 &- ((difference &- 1) >> 63)
            let row = table + entry * n
            for j in 0..<n { result[j] |= row[j] & mask }
        }
    }

    /// `value ← 2·value mod N` (set-up only).
    private static func double(_ value: inout [UInt64], modulus: [UInt64]) {
        var carry: UInt64 = 0
        for index in value.indices {
            let next = value[index] >> 63
            value[index] = value[index] << 1 | carry
            carry = next
        }
        if carry == 1 || !isLess(value, modulus) {
            var borrow = false
            for index in value.indices {
                let (partial, underflow1) = value[index].subtractingReportingOverflow(modulus[index])
                let (total, underflow2) = partial.subtractingReportingOverflow(bit(borrow))
                value[index] = total
                borrow = underflow1 || underflow2
            }
        }
    }

    private static func isLess(_ a: [UInt64], _ b: [UInt64]) -> Bool {
        for index in a.indices.reversed() where a[index] != b[index] { return a[index] < b[index] }
        return false
    }
}

/// 1 for true, 0 for false, without a branch: a conditional (`flag ? 1 : 0`) lets the optimizer
/// emit jumps on carries, which is slower here and leaks values through timing.
@inline(__always)
private func bit(_ flag: Bool) -> UInt64 { UInt64(unsafeBitCast(flag, to: UInt8.self)) }
