/// `PublicKeyCredentialCreationOptionsJSON` (WebAuthn Level 3 §5.1.8): what a relying party
/// sends a client to start a registration, and what Cognito's StartWebAuthnRegistration
/// returns as `CredentialCreationOptions`. Encode it with `JSONEncoder`; nil members are omitted.
public struct PublicKeyCredentialCreationOptionsJSON: Codable, Equatable, Sendable {
    public struct Extensions: Codable, Equatable, Sendable {
        /// `credProps`: asks the client to report whether the credential is discoverable.
        public var credProps: Bool?
    }

    public var rp: PublicKeyCredentialRpEntity
    public var user: PublicKeyCredentialUserEntity
    /// The challenge, base64url.
    public var challenge: String
    public var pubKeyCredParams: [PublicKeyCredentialParameters]
    /// Milliseconds.
    public var timeout: Int?
    public var excludeCredentials: [PublicKeyCredentialDescriptor]
    public var authenticatorSelection: AuthenticatorSelectionCriteria?
    /// Always `none`: this library trusts no attestation (see `AttestationTrust`).
    public var attestation: String
    public var extensions: Extensions?

    /// Options for a passkey registration: the algorithms this library verifies (ES256 first),
    /// attestation `none`, a discoverable credential and preferred user verification unless
    /// told otherwise. Exclude the user's registered credentials so that an authenticator does
    /// not register twice.
    public init(
        rp: PublicKeyCredentialRpEntity, user: PublicKeyCredentialUserEntity, challenge: [UInt8],
        algorithms: [COSEAlgorithm] = [.es256, .rs256], timeout: Int? = 300_000,
        excludeCredentials: [PublicKeyCredentialDescriptor] = [], residentKey: ResidentKeyRequirement? = .required,
        userVerification: UserVerificationRequirement? = .preferred, authenticatorAttachment: AuthenticatorAttachment? = nil,
        credProps: Bool = false
    ) {
        self.rp = rp
        self.user = user
        self.challenge = WebAuthnBase64URL.encode(challenge)
        pubKeyCredParams = algorithms.map(PublicKeyCredentialParameters.init)
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        authenticatorSelection =
            residentKey == nil && userVerification == nil && authenticatorAttachment == nil
            ? nil
            : AuthenticatorSelectionCriteria(
                authenticatorAttachment: authenticatorAttachment, residentKey: residentKey,
                userVerification: userVerification)
        attestation = "none"
        extensions = credProps ? Extensions(credProps: true) : nil
    }
}
