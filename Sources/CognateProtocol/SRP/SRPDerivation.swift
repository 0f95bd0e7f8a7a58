import Crypto
import Foundation

/// The hash-based steps of Cognito's SRP-6a, shared by the client (SDK) and the server. Both
/// halves agree on these byte for byte; only the modular arithmetic differs between them.
///
/// Integers are passed as big-endian magnitude bytes and re-encoded with ``SRPEncoding/pad(_:)``
/// wherever the protocol hashes them.
public enum SRPDerivation {
    static func hash(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

    /// The private key `x = H(PAD(salt) ‖ H(utf8(realm ‖ identity ‖ ":" ‖ secret)))`.
    ///
    /// For a user, `realm` is the pool name (the part of the pool id after "_"), `identity` the
    /// internal username (`USER_ID_FOR_SRP`) and `secret` the password. For a remembered device,
    /// `realm` is the DeviceGroupKey, `identity` the DeviceKey and `secret` the device password.
    public static func privateKey(salt: [UInt8], realm: String, identity: String, secret: String) -> [UInt8] {
        let inner = hash(Array("\(realm)\(identity):\(secret)".utf8))
        return hash(SRPEncoding.pad(salt) + inner)
    }

    /// The scrambling parameter `u = H(PAD(A) ‖ PAD(B))`.
    public static func scrambler(clientPublic a: [UInt8], serverPublic b: [UInt8]) -> [UInt8] {
        hash(SRPEncoding.pad(a) + SRPEncoding.pad(b))
    }

    /// `K = HKDF-SHA256(ikm: PAD(S), salt: PAD(u), info: "Caldera Derived Key", length: 16)`.
    public static func sessionKey(premasterSecret s: [UInt8], scrambler u: [UInt8]) -> [UInt8] {
        let prk = HMAC<SHA256>.authenticationCode(
            for: SRPEncoding.pad(s), using: SymmetricKey(data: SRPEncoding.pad(u)))
        let okm = HMAC<SHA256>.authenticationCode(
            for: Array("Caldera Derived Key".utf8) + [1], using: SymmetricKey(data: Data(prk)))
        return Array(Data(okm).prefix(16))
    }

    /// `PASSWORD_CLAIM_SIGNATURE` before base64:
    /// `HMAC-SHA256(key: K, message: utf8(realm) ‖ utf8(identity) ‖ secretBlock ‖ utf8(timestamp))`.
    public static func claimSignature(
        sessionKey: [UInt8], realm: String, identity: String, secretBlock: [UInt8], timestamp: String
    ) -> [UInt8] {
        let message = Array(realm.utf8) + Array(identity.utf8) + secretBlock + Array(timestamp.utf8)
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: sessionKey)))
    }

    /// The SRP realm of a user pool: the part of its id after the first "_" (`us-east-1_AbC` → `AbC`).
    public static func poolName(ofPoolId poolId: String) -> String {
        guard let underscore = poolId.firstIndex(of: "_") else { return poolId }
        return String(poolId[poolId.index(after: underscore)...])
    }
}
