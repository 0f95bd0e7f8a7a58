import CognateProtocol
import Foundation

/// The server half of Cognito's SRP-6a (cognito-protocol.md §4), on GMP.
///
/// Values cross this API as big-endian magnitude bytes; hashing and key derivation are the
/// shared ``SRPDerivation`` the SDK's client uses, so both halves cannot disagree.
public enum SRPServer {
    static let n = BigNumber(bytes: SRPGroup.prime)
    static let g = BigNumber(UInt(SRPGroup.generator))
    static let k = BigNumber(bytes: SRPGroup.multiplier)
    /// `g^e` for the 256-bit secrets `x` and `b` (a table of g's powers, built on first use).
    static let powersOfG = FixedBasePower(base: g, modulus: n)

    /// The verifier `v = g^x mod N` of a secret (a user's password or a device's).
    public static func verifier(salt: [UInt8], realm: String, identity: String, secret: String) -> [UInt8] {
        let x = SRPDerivation.privateKey(salt: salt, realm: realm, identity: identity, secret: secret)
        return powersOfG.power(x).bytes
    }

    /// Whether `secret` matches a stored verifier: one exponentiation, then a constant-time
    /// comparison. This is how USER_PASSWORD_AUTH checks a password without another hash.
    public static func matches(secret: String, salt: [UInt8], realm: String, identity: String,
                               verifier stored: [UInt8]) -> Bool {
        let computed = verifier(salt: salt, realm: realm, identity: identity, secret: secret)
        return ConstantTime.equals(
            SRPEncoding.pad(computed), SRPEncoding.pad(stored))
    }

    /// `B = (k·v + g^b) mod N` for a random `b`; nil in the (negligible) case `B ≡ 0`.
    public static func serverPublicValue(verifier v: [UInt8], ephemeral b: [UInt8]) -> [UInt8]? {
        let gb = powersOfG.power(b)
        let kv = k.multiplied(by: BigNumber(bytes: v), modulus: n)
        let result = kv.added(to: gb, modulus: n)
        return result.isZero ? nil : result.bytes
    }

    /// `value mod N`.
    static func reduced(_ value: [UInt8]) -> [UInt8] {
        BigNumber(bytes: value).reduced(modulo: n).bytes
    }

    /// Whether a client's `A` is acceptable: `A mod N ≠ 0`.
    public static func isValidClientPublicValue(_ a: [UInt8]) -> Bool {
        !BigNumber(bytes: a).reduced(modulo: n).isZero
    }

    /// The session key `K` the client must have derived: `S = (A · v^u)^b mod N`, then HKDF.
    /// Nil when `u = 0` (the exchange must be aborted).
    public static func sessionKey(clientPublic a: [UInt8], serverPublic bPublic: [UInt8], verifier v: [UInt8],
                                  ephemeral b: [UInt8]) -> [UInt8]? {
        let u = SRPDerivation.scrambler(clientPublic: a, serverPublic: bPublic)
        let uNumber = BigNumber(bytes: u)
        guard !uNumber.isZero else { return nil }
        let vu = BigNumber(bytes: v).power(uNumber, modulus: n)
        let base = BigNumber(bytes: a).multiplied(by: vu, modulus: n)
        let s = base.power(BigNumber(bytes: b), modulus: n)
        return SRPDerivation.sessionKey(premasterSecret: s.bytes, scrambler: u)
    }
}
