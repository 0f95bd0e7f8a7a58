import Foundation

/// The client half of Cognito's SRP-6a in portable Swift (no system libraries), for the SDK.
///
/// One instance holds one ephemeral key pair: create it, send ``publicValueHex`` as `SRP_A`,
/// then answer the `PASSWORD_VERIFIER` challenge with ``passwordClaim(…)``. The same instance
/// may answer a following `DEVICE_PASSWORD_VERIFIER` (as Cognito's own clients do).
///
/// The arithmetic is ``SRPGroupArithmetic`` (Montgomery form on 64-bit limbs, constant-time).
/// Creating an instance costs one exponentiation and a claim two more (a few milliseconds
/// each in an optimized build): callers on an actor should run both off it.
public struct SRPClient: Sendable {
    /// The secret `a` (limbs, reduced mod N).
    let a: [UInt64]
    /// `A = g^a mod N`, big-endian without leading zeros.
    let publicValue: [UInt8]

    /// - Parameter ephemeral: the secret `a` as big-endian bytes; random when nil (tests pass a
    ///   fixed value to reproduce vectors). 32 random bytes give 256 bits, well above the
    ///   group's security level, at a quarter of the cost of a 1024-bit exponent.
    public init(ephemeral: [UInt8]? = nil) {
        let field = SRPGroupArithmetic.field
        var a = field.integer(field.element(fromBigEndian: ephemeral ?? SRPClient.randomBytes(32)))
        if Limbs.isZero(a) { a[0] = 1 }
        self.a = a
        self.publicValue = SRPEncoding.trimmed(SRPGroupArithmetic.bytes(SRPGroupArithmetic.generatorPower(a)))
    }

    /// `SRP_A` as lower-case hex.
    public var publicValueHex: String { SRPEncoding.minimalHex(publicValue) }

    public struct Claim: Sendable, Equatable {
        /// `PASSWORD_CLAIM_SIGNATURE` (base64).
        public var signature: String
        /// `TIMESTAMP`, signed as sent.
        public var timestamp: String
    }

    public enum ClaimError: Error, Equatable {
        case malformedChallenge(String)
        case unsafeServerValue
    }

    /// Computes the password claim for a `PASSWORD_VERIFIER` (or, with the device's group key,
    /// key and password as realm, identity and secret, a `DEVICE_PASSWORD_VERIFIER`) challenge.
    public func passwordClaim(
        realm: String, identity: String, secret: String, saltHex: String, serverPublicHex: String,
        secretBlock: String, date: Date = Date()
    ) throws -> Claim {
        guard let salt = SRPEncoding.bytes(fromHex: saltHex) else { throw ClaimError.malformedChallenge("SALT") }
        guard serverPublicHex.count <= SRPGroup.maximumPublicValueHexLength,
            let bBytes = SRPEncoding.bytes(fromHex: serverPublicHex)
        else { throw ClaimError.malformedChallenge("SRP_B") }
        guard let block = Data(base64Encoded: secretBlock) else { throw ClaimError.malformedChallenge("SECRET_BLOCK") }
        let field = SRPGroupArithmetic.field
        let b = field.element(fromBigEndian: bBytes)
        guard !field.isZero(b) else { throw ClaimError.unsafeServerValue }
        let u = SRPDerivation.scrambler(clientPublic: publicValue, serverPublic: bBytes)
        guard u.contains(where: { $0 != 0 }) else { throw ClaimError.unsafeServerValue }
        let x = Limbs.fromBigEndian(SRPDerivation.privateKey(salt: salt, realm: realm, identity: identity, secret: secret))
        // S = (B − k·g^x)^(a + u·x) mod N
        let gx = SRPGroupArithmetic.generatorPower(x)
        let base = field.subtract(b, field.multiply(SRPGroupArithmetic.multiplier, gx))
        let exponent = Limbs.add(a, Limbs.multiply(Limbs.fromBigEndian(u), x))
        let s = SRPGroupArithmetic.bytes(field.power(base, exponent: exponent))
        let key = SRPDerivation.sessionKey(premasterSecret: s, scrambler: u)
        let timestamp = SRPTimestamp.format(date)
        let signature = SRPDerivation.claimSignature(
            sessionKey: key, realm: realm, identity: identity, secretBlock: Array(block), timestamp: timestamp)
        return Claim(signature: Data(signature).base64EncodedString(), timestamp: timestamp)
    }

    /// What a device registers with ConfirmDevice: a fresh salt and the verifier of its password.
    public static func deviceVerifier(
        deviceGroupKey: String, deviceKey: String, devicePassword: String, salt: [UInt8]? = nil
    ) -> (passwordVerifier: String, salt: String) {
        let saltBytes = SRPEncoding.pad(salt ?? randomBytes(16))
        let x = SRPDerivation.privateKey(
            salt: saltBytes, realm: deviceGroupKey, identity: deviceKey, secret: devicePassword)
        let v = SRPGroupArithmetic.bytes(SRPGroupArithmetic.generatorPower(Limbs.fromBigEndian(x)))
        return (Data(SRPEncoding.pad(v)).base64EncodedString(), Data(saltBytes).base64EncodedString())
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
