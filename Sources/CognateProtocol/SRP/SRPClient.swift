import BigInt
import Foundation

/// The client half of Cognito's SRP-6a in portable Swift (no system libraries), for the SDK.
///
/// One instance holds one ephemeral key pair: create it, send ``publicValueHex`` as `SRP_A`,
/// then answer the `PASSWORD_VERIFIER` challenge with ``passwordClaim(…)``. The same instance
/// may answer a following `DEVICE_PASSWORD_VERIFIER` (as Cognito's own clients do).
public struct SRPClient: Sendable {
    let a: BigUInt
    let publicValue: BigUInt
    static let n = BigUInt(Data(SRPGroup.prime))
    static let g = BigUInt(SRPGroup.generator)
    static let k = BigUInt(Data(SRPGroup.multiplier))

    /// - Parameter ephemeral: the secret `a` as big-endian bytes; random when nil (tests pass a
    ///   fixed value to reproduce vectors). 32 random bytes give 256 bits, well above the
    ///   group's security level, at a quarter of the cost of a 1024-bit exponent.
    public init(ephemeral: [UInt8]? = nil) {
        var a = BigUInt(Data(ephemeral ?? SRPClient.randomBytes(32))) % Self.n
        if a == 0 { a = 1 }
        self.a = a
        self.publicValue = Self.g.power(a, modulus: Self.n)
    }

    /// `SRP_A` as lower-case hex.
    public var publicValueHex: String { SRPEncoding.minimalHex(Array(publicValue.serialize())) }

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
        let b = BigUInt(Data(bBytes))
        guard b % Self.n != 0 else { throw ClaimError.unsafeServerValue }
        let u = SRPDerivation.scrambler(clientPublic: Array(publicValue.serialize()), serverPublic: bBytes)
        let uInt = BigUInt(Data(u))
        guard uInt != 0 else { throw ClaimError.unsafeServerValue }
        let x = BigUInt(Data(SRPDerivation.privateKey(salt: salt, realm: realm, identity: identity, secret: secret)))
        let gx = Self.g.power(x, modulus: Self.n)
        let kgx = (Self.k * gx) % Self.n
        let base = (b % Self.n + Self.n - kgx) % Self.n
        let s = base.power(a + uInt * x, modulus: Self.n)
        let key = SRPDerivation.sessionKey(premasterSecret: Array(s.serialize()), scrambler: u)
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
        let v = g.power(BigUInt(Data(x)), modulus: n)
        return (Data(SRPEncoding.pad(Array(v.serialize()))).base64EncodedString(), Data(saltBytes).base64EncodedString())
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
