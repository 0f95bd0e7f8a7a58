import CGMP

/// An arbitrary-precision non-negative integer backed by GMP, for the server's SRP arithmetic
/// (public for the benchmark's load generator, which plays SRP clients at GMP speed).
///
/// Exponentiation uses `mpz_powm_sec`, whose running time and memory access pattern do not
/// depend on the exponent's value (the secrets `b` and `x`), only on its size.
public final class BigNumber: @unchecked Sendable {  // immutable once built: every operation returns a new value
    /// Heap storage with a stable address for GMP to write through.
    fileprivate let value = UnsafeMutablePointer<__mpz_struct>.allocate(capacity: 1)

    public init() { __gmpz_init(value) }

    public init(_ small: UInt) {
        __gmpz_init_set_ui(value, small)
    }

    /// From big-endian magnitude bytes.
    public init<Bytes: Collection<UInt8>>(bytes: Bytes) {
        __gmpz_init(value)
        let array = Array(bytes)
        guard !array.isEmpty else { return }
        array.withUnsafeBytes { raw in
            __gmpz_import(value, array.count, 1, 1, 1, 0, raw.baseAddress)
        }
    }

    /// From GMP limbs, least significant first.
    init(limbs: [mp_limb_t]) {
        __gmpz_init(value)
        limbs.withUnsafeBytes { raw in
            __gmpz_import(value, limbs.count, -1, MemoryLayout<mp_limb_t>.size, 0, 0, raw.baseAddress)
        }
    }

    /// The value's GMP limbs, least significant first, none of them zero at the top.
    var limbs: [mp_limb_t] { limbs(count: Int(__gmpz_size(value))) }

    /// The value's limbs, least significant first, padded with zeros to `count`.
    func limbs(count: Int) -> [mp_limb_t] {
        (0..<count).map { __gmpz_getlimbn(value, mp_size_t($0)) }
    }

    deinit {
        __gmpz_clear(value)
        value.deallocate()
    }

    /// Big-endian magnitude bytes without leading zeros (`[]` for zero).
    public var bytes: [UInt8] {
        let count = (Int(__gmpz_sizeinbase(value, 2)) + 7) / 8
        guard !isZero else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        var written = 0
        out.withUnsafeMutableBytes { raw in
            _ = __gmpz_export(raw.baseAddress, &written, 1, 1, 1, 0, value)
        }
        return Array(out.prefix(written))
    }

    public var isZero: Bool { value.pointee._mp_size == 0 }

    /// `self^exponent mod modulus` in constant time (modulus must be odd, exponent > 0).
    public func power(_ exponent: BigNumber, modulus: BigNumber) -> BigNumber {
        let result = BigNumber()
        if exponent.isZero {
            __gmpz_set_ui(result.value, 1)
            __gmpz_mod(result.value, result.value, modulus.value)
        } else {
            __gmpz_powm_sec(result.value, value, exponent.value, modulus.value)
        }
        return result
    }

    public func multiplied(by other: BigNumber, modulus: BigNumber) -> BigNumber {
        let result = BigNumber()
        __gmpz_mul(result.value, value, other.value)
        __gmpz_mod(result.value, result.value, modulus.value)
        return result
    }

    public func added(to other: BigNumber, modulus: BigNumber) -> BigNumber {
        let result = BigNumber()
        __gmpz_add(result.value, value, other.value)
        __gmpz_mod(result.value, result.value, modulus.value)
        return result
    }

    public func reduced(modulo modulus: BigNumber) -> BigNumber {
        let result = BigNumber()
        __gmpz_mod(result.value, value, modulus.value)
        return result
    }

    /// `(self − other) mod modulus`, never negative.
    public func subtracted(_ other: BigNumber, modulus: BigNumber) -> BigNumber {
        let result = BigNumber()
        __gmpz_sub(result.value, value, other.value)
        __gmpz_mod(result.value, result.value, modulus.value)
        return result
    }

    /// `self · other + addend`, not reduced.
    public func multiplied(by other: BigNumber, adding addend: BigNumber) -> BigNumber {
        let result = BigNumber()
        __gmpz_mul(result.value, value, other.value)
        __gmpz_add(result.value, result.value, addend.value)
        return result
    }
}
