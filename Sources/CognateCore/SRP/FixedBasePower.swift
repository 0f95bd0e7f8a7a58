import CGMP

/// `g^e mod N` for one fixed base and modulus and secret exponents of at most 256 bits (the
/// SRP private key `x`, a SHA-256, and the server's ephemeral `b`), in constant time, from a
/// table of powers computed once: for every 4-bit window `j` of the exponent, the 16 values
/// `g^(d·16^j)`. An exponentiation is then 64 table lookups (`mpn_sec_tabselect`, which reads
/// every entry) and 64 modular multiplications (`mpn_sec_mul`, `mpn_sec_div_r`), instead of
/// `mpz_powm_sec`'s 256 squarings and its multiplications: no branch and no memory access
/// depends on the exponent's value, only on its size, which is fixed.
///
/// The table is public data (powers of the public `g`): 64 × 16 values of N's size, 384 KiB
/// for a 3072-bit N.
final class FixedBasePower: @unchecked Sendable {  // immutable once built
    static let exponentBits = 256
    private static let windowBits = 4
    private static let windows = exponentBits / windowBits
    private static let entries = 1 << windowBits

    private let base: BigNumber
    private let modulusNumber: BigNumber
    private let modulus: [mp_limb_t]
    private let limbs: Int
    /// `windows` blocks of `entries` values of `limbs` limbs: block j, entry d is g^(d·16^j).
    private let table: [mp_limb_t]
    private let scratchLimbs: Int

    init(base: BigNumber, modulus: BigNumber) {
        self.base = base
        modulusNumber = modulus
        self.modulus = modulus.limbs
        limbs = self.modulus.count
        scratchLimbs = max(Int(__gmpn_sec_mul_itch(limbs, limbs)), Int(__gmpn_sec_div_r_itch(2 * limbs, limbs)))
        var table: [mp_limb_t] = []
        table.reserveCapacity(Self.windows * Self.entries * limbs)
        var windowBase = base.reduced(modulo: modulus)  // g^(16^j)
        for _ in 0..<Self.windows {
            var power = BigNumber(1)
            for _ in 0..<Self.entries {
                table += power.limbs(count: limbs)
                power = power.multiplied(by: windowBase, modulus: modulus)
            }
            windowBase = power  // g^(16^j · 16)
        }
        self.table = table
    }

    /// `g^exponent mod N`; `exponent` is big-endian. One over 32 bytes (no caller has one) goes
    /// to `mpz_powm_sec`, which is constant-time too, rather than stopping the process.
    func power(_ exponent: [UInt8]) -> BigNumber {
        guard exponent.count <= Self.exponentBits / 8 else {
            return base.power(BigNumber(bytes: exponent), modulus: modulusNumber)
        }
        let padded = [UInt8](repeating: 0, count: Self.exponentBits / 8 - exponent.count) + exponent
        var result = [mp_limb_t](repeating: 0, count: limbs)
        result[0] = 1
        var selected = [mp_limb_t](repeating: 0, count: limbs)
        var product = [mp_limb_t](repeating: 0, count: 2 * limbs)
        var scratch = [mp_limb_t](repeating: 0, count: scratchLimbs)
        table.withUnsafeBufferPointer { table in
            modulus.withUnsafeBufferPointer { modulus in
                for window in 0..<Self.windows {
                    // Window 0 is the exponent's lowest 4 bits: the low nibble of its last byte.
                    let byte = padded[padded.count - 1 - window / 2]
                    let digit = window % 2 == 0 ? byte & 0x0f : byte >> 4
                    let block = table.baseAddress! + window * Self.entries * limbs
                    __gmpn_sec_tabselect(&selected, block, limbs, mp_size_t(Self.entries), mp_size_t(digit))
                    __gmpn_sec_mul(&product, result, limbs, selected, limbs, &scratch)
                    __gmpn_sec_div_r(&product, 2 * limbs, modulus.baseAddress!, limbs, &scratch)
                    for index in 0..<limbs { result[index] = product[index] }
                }
            }
        }
        return BigNumber(limbs: result)
    }
}
