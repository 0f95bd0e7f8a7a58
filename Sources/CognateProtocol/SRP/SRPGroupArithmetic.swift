/// The modular arithmetic of ``SRPGroup`` for the SRP client: one ``MontgomeryField`` over the
/// 3072-bit prime, with the generator and the multiplier `k` already in Montgomery form.
enum SRPGroupArithmetic {
    static let field = MontgomeryField(modulus: SRPGroup.prime)
    static let generator = field.element(fromBigEndian: [SRPGroup.generator])
    static let multiplier = field.element(fromBigEndian: SRPGroup.multiplier)

    /// `g^exponent mod N`, in Montgomery form.
    static func generatorPower(_ exponent: [UInt64]) -> [UInt64] { field.power(generator, exponent: exponent) }

    /// An element's integer as big-endian bytes of N's length (384), as the protocol pads them.
    static func bytes(_ element: [UInt64]) -> [UInt8] {
        field.bigEndianBytes(element, byteCount: SRPGroup.prime.count)
    }
}
