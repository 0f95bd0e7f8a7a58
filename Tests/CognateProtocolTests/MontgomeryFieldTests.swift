import BigInt
import Foundation
import Testing

@testable import CognateProtocol

/// The SRP client's Montgomery arithmetic against attaswift's general BigInt, on random values:
/// the SRP group's 3072-bit prime and small odd moduli whose carries are easy to get wrong.
struct MontgomeryFieldTests {
    static func randomBytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: .min ... .max) } }

    static func integer(_ bytes: [UInt8]) -> BigUInt { BigUInt(Data(bytes)) }

    static func bytes(_ limbs: [UInt64]) -> [UInt8] { Limbs.bigEndianBytes(limbs, byteCount: limbs.count * 8) }

    /// Moduli of 1 to 5 limbs, among them all-ones limbs (the worst case for carries) and
    /// values just above a power of two.
    static let smallModuli: [[UInt8]] = [
        [0x03], [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        [0x01] + [UInt8](repeating: 0, count: 7) + [0x01],
        [UInt8](repeating: 0xff, count: 24), [0x80] + [UInt8](repeating: 0, count: 30) + [0x01],
        [0x7f] + randomBytes(38) + [0x01], randomBytes(16) + [0xff], randomBytes(40) + [0x0f],
    ]

    @Test(arguments: smallModuli)
    func agreesWithBigIntOnSmallModuli(modulusBytes: [UInt8]) {
        var modulusBytes = modulusBytes
        if modulusBytes.allSatisfy({ $0 == 0 }) { modulusBytes[0] = 1 }
        modulusBytes[modulusBytes.count - 1] |= 1
        let field = MontgomeryField(modulus: modulusBytes)
        let n = Self.integer(modulusBytes)
        for _ in 0..<40 {
            let xBytes = Self.randomBytes(Int.random(in: 0...(modulusBytes.count * 2 + 3)))
            let yBytes = Self.randomBytes(Int.random(in: 0...modulusBytes.count))
            let exponent = Self.randomBytes(Int.random(in: 0...24))
            let (x, y) = (Self.integer(xBytes), Self.integer(yBytes))
            let (xm, ym) = (field.element(fromBigEndian: xBytes), field.element(fromBigEndian: yBytes))
            #expect(Self.integer(Self.bytes(field.integer(xm))) == x % n)
            #expect(Self.integer(Self.bytes(field.integer(field.multiply(xm, ym)))) == (x * y) % n)
            #expect(Self.integer(Self.bytes(field.integer(field.add(xm, ym)))) == (x + y) % n)
            #expect(Self.integer(Self.bytes(field.integer(field.subtract(xm, ym)))) == (x % n + n - y % n) % n)
            let power = field.integer(field.power(xm, exponent: Limbs.fromBigEndian(exponent)))
            #expect(Self.integer(Self.bytes(power)) == x.power(Self.integer(exponent), modulus: n))
        }
    }

    @Test func agreesWithBigIntOnTheSRPGroup() {
        let field = SRPGroupArithmetic.field
        let n = Self.integer(SRPGroup.prime)
        #expect(field.limbCount == 48)
        for round in 0..<4 {
            // Bases: random below N, above N (385 bytes, as SRP_B may be sent), and N − 1.
            let baseBytes = round == 3 ? Limbs.bigEndianBytes(Limbs.fromBigEndian((n - 1).serialize()), byteCount: 384)
                : Self.randomBytes(round == 2 ? 385 : 384)
            let otherBytes = Self.randomBytes(384)
            let exponentBytes = Self.randomBytes(round == 0 ? 65 : 32)
            let base = field.element(fromBigEndian: baseBytes)
            let other = field.element(fromBigEndian: otherBytes)
            let expectedProduct = (Self.integer(baseBytes) * Self.integer(otherBytes)) % n
            #expect(Self.integer(SRPGroupArithmetic.bytes(field.multiply(base, other))) == expectedProduct)
            let power = field.power(base, exponent: Limbs.fromBigEndian(exponentBytes))
            #expect(Self.integer(SRPGroupArithmetic.bytes(power))
                == Self.integer(baseBytes).power(Self.integer(exponentBytes), modulus: n))
            let generatorPower = SRPGroupArithmetic.generatorPower(Limbs.fromBigEndian(exponentBytes))
            #expect(Self.integer(SRPGroupArithmetic.bytes(generatorPower))
                == BigUInt(2).power(Self.integer(exponentBytes), modulus: n))
        }
    }

    @Test func edgeValues() {
        let field = SRPGroupArithmetic.field
        #expect(field.isZero(field.element(fromBigEndian: SRPGroup.prime)))
        #expect(field.isZero(field.element(fromBigEndian: [UInt8]())))
        #expect(field.element(fromBigEndian: [1]) == field.one)
        // x^0 = 1, 0^e = 0, N + 1 ≡ 1
        #expect(field.power(SRPGroupArithmetic.generator, exponent: [0]) == field.one)
        #expect(field.power(field.zero, exponent: [5]) == field.zero)
        let primePlusOne = Array((Self.integer(SRPGroup.prime) + 1).serialize())
        #expect(field.element(fromBigEndian: primePlusOne) == field.one)
        #expect(Limbs.multiply([UInt64.max, UInt64.max], [UInt64.max]) == [1, UInt64.max, UInt64.max - 1])
        #expect(Limbs.add([UInt64.max], [1, 2]) == [0, 3, 0])
    }
}
