import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// The table-driven `g^e` must equal GMP's `mpz_powm_sec` for every 256-bit exponent.
struct FixedBasePowerTests {
    @Test func agreesWithGMPsExponentiation() {
        let random = SystemRandom()
        var exponents: [[UInt8]] = [
            [], [0], [1], [2], [0x10], [0xff], [UInt8](repeating: 0xff, count: 32), [UInt8](repeating: 0, count: 32),
            [0x80] + [UInt8](repeating: 0, count: 31), [UInt8](repeating: 0, count: 31) + [1], [0x01, 0x00],
        ]
        exponents += (1...32).map { random.bytes($0) }
        exponents += (0..<50).map { _ in random.bytes(32) }
        exponents += [random.bytes(33), random.bytes(128)]  // beyond the table: mpz_powm_sec
        for exponent in exponents {
            let expected = SRPServer.g.power(BigNumber(bytes: exponent), modulus: SRPServer.n).bytes
            #expect(SRPServer.powersOfG.power(exponent).bytes == expected, "exponent \(SRPEncoding.hexString(exponent))")
        }
    }

    @Test func anotherBaseAndModulus() {
        let modulus = BigNumber(bytes: [0xc5] + SystemRandom().bytes(40) + [0x0b])  // odd, not a prime: no matter
        let base = BigNumber(bytes: [0x07, 0x5b])
        let powers = FixedBasePower(base: base, modulus: modulus)
        for _ in 0..<20 {
            let exponent = SystemRandom().bytes(32)
            #expect(powers.power(exponent).bytes == base.power(BigNumber(bytes: exponent), modulus: modulus).bytes)
        }
    }
}
