import CGMP

/// An arbitrary-precision non-negative integer backed by GMP, for the server's SRP arithmetic.
///
/// Exponentiation uses `mpz_powm_sec`, whose running time and memory access pattern do not
/// depend on the exponent's value (the secrets `b` and `x`), only on its size.
final class BigNumber: @unchecked Sendable {  // immutable once built: every operation returns a new value
    /// Heap storage with a stable address for GMP to write through.
    fileprivate let value = UnsafeMutablePointer<__mpz_struct>.allocate(capacity: 1)

    init() { __gmpz_init(value) }

    init(_ small: UInt) {
        __gmpz_init_set_ui(value, small)
    }

    /// From big-endian magnitude bytes.
    init<Bytes: Collection<UInt8>>(bytes: Bytes) {
        __gmpz_init(value)
        let array = Array(bytes)
        guard !array.isEmpty else { return }
        array.withUnsafeBytes { raw in
            __gmpz_import(value, array.count, 1, 1, 1, 0, raw.baseAddress)
        }
    }

    deinit {
        __gmpz_clear(value)
        value.deallocate()
    }

    /// Big-endian magnitude bytes without leading zeros (`[]` for zero).
    var bytes: [UInt8] {
        let count = (Int(__gmpz_sizeinbase(value, 2)) + 7) / 8
        guard !isZero else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        var written = 0
        out.withUnsafeMutableBytes { raw in
            _ = __gmpz_export(raw.baseAddress, &written, 1, 1, 1, 0, value)
        }
        return Array(out.prefix(written))
    }

    var isZero: Bool { value.pointee._mp_size == 0 }

    /// `self^exponent mod modulus` in constant time (modulus must be odd, exponent > 0).
    func power(_ exponent: BigNumber, modulus: BigNumber) -> BigNumber {
        let result = BigNumber()
        if exponent.isZero {
            __gmpz_set_ui(result.value, 1)
            __gmpz_mod(result.value, result.value, modulus.value)
        } else {
            __gmpz_powm_sec(result.value, value, exponent.value, modulus.value)
        }
        return result
    }

    func multiplied(by other: BigNumber, modulus: BigNumber) -> BigNumber {
        let result = BigNumber()
        __gmpz_mul(result.value, value, other.value)
        __gmpz_mod(result.value, result.value, modulus.value)
        return result
    }

    func added(to other: BigNumber, modulus: BigNumber) -> BigNumber {
        let result = BigNumber()
        __gmpz_add(result.value, value, other.value)
        __gmpz_mod(result.value, result.value, modulus.value)
        return result
    }

    func reduced(modulo modulus: BigNumber) -> BigNumber {
        let result = BigNumber()
        __gmpz_mod(result.value, value, modulus.value)
        return result
    }
}
