import CognateCore
import CognateProtocol
import Foundation

/// The client half of one USER_SRP_AUTH sign-in, on GMP, at the lowest cost a client can have:
/// the ephemeral `a` (and `A`) is drawn once per worker and reused — the server cannot tell and
/// does all its work — and `g^x` once per user; each sign-in then costs the client one
/// exponentiation, `(B − k·g^x)^(a + u·x)`.
struct SRPSignIn {
    static let n = BigNumber(bytes: SRPGroup.prime)
    static let g = BigNumber(UInt(SRPGroup.generator))
    static let k = BigNumber(bytes: SRPGroup.multiplier)

    let a: BigNumber
    let publicValue: [UInt8]
    let poolName: String

    init(poolId: String) {
        var bytes = [UInt8](repeating: 0, count: 32)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
        a = BigNumber(bytes: bytes)
        publicValue = Self.g.power(a, modulus: Self.n).bytes
        poolName = SRPDerivation.poolName(ofPoolId: poolId)
    }

    var publicValueHex: String { SRPEncoding.minimalHex(publicValue) }

    /// `x` and `g^x` of a user (they depend on the salt and the internal username only).
    struct UserSecret {
        let x: BigNumber
        let gx: BigNumber
    }

    func userSecret(salt: [UInt8], userId: String, password: String) -> UserSecret {
        let x = BigNumber(bytes: SRPDerivation.privateKey(salt: salt, realm: poolName, identity: userId, secret: password))
        return UserSecret(x: x, gx: Self.g.power(x, modulus: Self.n))
    }

    /// PASSWORD_CLAIM_SIGNATURE and TIMESTAMP for a PASSWORD_VERIFIER challenge.
    func claim(serverPublic: [UInt8], secret: UserSecret, userId: String, secretBlock: String, now: Date)
        -> (signature: String, timestamp: String)
    {
        let u = SRPDerivation.scrambler(clientPublic: publicValue, serverPublic: serverPublic)
        let base = BigNumber(bytes: serverPublic).subtracted(Self.k.multiplied(by: secret.gx, modulus: Self.n), modulus: Self.n)
        let exponent = BigNumber(bytes: u).multiplied(by: secret.x, adding: a)
        let key = SRPDerivation.sessionKey(premasterSecret: base.power(exponent, modulus: Self.n).bytes, scrambler: u)
        let timestamp = SRPTimestamp.format(now)
        let signature = SRPDerivation.claimSignature(
            sessionKey: key, realm: poolName, identity: userId, secretBlock: Array(Data(base64Encoded: secretBlock) ?? Data()),
            timestamp: timestamp)
        return (Data(signature).base64EncodedString(), timestamp)
    }
}
