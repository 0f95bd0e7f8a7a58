import Crypto

/// The relying party a ceremony is verified for: its RP ID and the web origins allowed to
/// speak for it (WebAuthn §5.8.1, §13.4.9).
public struct RelyingParty: Equatable, Sendable {
    /// The RP ID, a registrable domain suffix of the origins' hosts, e.g. `example.com`.
    public var id: String
    /// Origins allowed in client data, compared as exact strings (`https://example.com`,
    /// `https://login.example.com:8443`, or an app's `android:apk-key-hash:…`).
    public var origins: Set<String>
    /// Whether a ceremony run in a cross-origin iframe (`crossOrigin: true`) is accepted.
    public var allowsCrossOrigin: Bool
    /// Top-level origins a cross-origin iframe may be embedded in. A `topOrigin` in client data
    /// must be one of them, so with the default (none) any `topOrigin` is refused.
    public var topOrigins: Set<String>

    public init(id: String, origins: Set<String>, allowsCrossOrigin: Bool = false, topOrigins: Set<String> = []) {
        self.id = id
        self.origins = origins
        self.allowsCrossOrigin = allowsCrossOrigin
        self.topOrigins = topOrigins
    }

    /// SHA-256 of the RP ID: what authenticator data must begin with.
    public var idHash: [UInt8] { Array(SHA256.hash(data: Array(id.utf8))) }

    /// Parses `clientDataJSON` and checks it against this relying party and the ceremony:
    /// its type, the challenge (compared in constant time), the origin, and cross-origin use.
    public func verifyClientData(_ json: [UInt8], type: String, challenge: [UInt8]) throws(WebAuthnError) -> CollectedClientData {
        let clientData = try CollectedClientData(json: json)
        guard clientData.type == type else { throw .unexpectedType(expected: type, received: clientData.type) }
        guard ConstantTime.equals(clientData.challenge, challenge) else { throw .challengeMismatch }
        guard origins.contains(clientData.origin) else { throw .originNotAllowed(clientData.origin) }
        if clientData.crossOrigin && !allowsCrossOrigin { throw .crossOriginNotAllowed }
        if let topOrigin = clientData.topOrigin, !topOrigins.contains(topOrigin) {
            throw .topOriginNotAllowed(topOrigin)
        }
        return clientData
    }

    /// Checks the parts of authenticator data both ceremonies share: the RP ID hash, user
    /// presence, and user verification when required.
    func verifyAuthenticatorData(_ authenticatorData: AuthenticatorData, requireUserVerification: Bool) throws(WebAuthnError) {
        guard ConstantTime.equals(authenticatorData.rpIdHash, idHash) else { throw .relyingPartyMismatch }
        guard authenticatorData.flags.contains(.userPresent) else { throw .userPresenceMissing }
        if requireUserVerification && !authenticatorData.flags.contains(.userVerified) {
            throw .userVerificationMissing
        }
    }
}
