/// `PublicKeyCredentialRequestOptionsJSON` (WebAuthn Level 3 §5.1.8): what a relying party sends
/// a client to start an authentication, e.g. in a WEB_AUTHN sign-in challenge. Encode it with
/// `JSONEncoder`; nil members are omitted.
public struct PublicKeyCredentialRequestOptionsJSON: Codable, Equatable, Sendable {
    /// The challenge, base64url.
    public var challenge: String
    /// Milliseconds.
    public var timeout: Int?
    public var rpId: String?
    /// The credentials that may answer; empty lets the user pick any discoverable credential.
    public var allowCredentials: [PublicKeyCredentialDescriptor]
    public var userVerification: UserVerificationRequirement?

    public init(
        challenge: [UInt8], rpId: String?, allowCredentials: [PublicKeyCredentialDescriptor] = [],
        userVerification: UserVerificationRequirement? = .preferred, timeout: Int? = 300_000
    ) {
        self.challenge = WebAuthnBase64URL.encode(challenge)
        self.timeout = timeout
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
    }
}
