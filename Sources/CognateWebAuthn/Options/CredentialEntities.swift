// The dictionaries ceremony options are made of, in the JSON shape of WebAuthn Level 3's
// `toJSON()` / `parseCreationOptionsFromJSON()` (§5.1.8, §5.4): binary members as base64url text.

/// `PublicKeyCredentialRpEntity`: the relying party as the authenticator shows and scopes it.
public struct PublicKeyCredentialRpEntity: Codable, Equatable, Sendable {
    /// The RP ID; omitted, the client uses the origin's effective domain.
    public var id: String?
    public var name: String

    public init(id: String?, name: String) {
        self.id = id
        self.name = name
    }
}

/// `PublicKeyCredentialUserEntityJSON`: the account a credential is created for.
public struct PublicKeyCredentialUserEntity: Codable, Equatable, Sendable {
    /// The user handle, base64url: opaque, at most 64 bytes, no personal information.
    public var id: String
    public var name: String
    public var displayName: String

    /// `handle` is the user handle's bytes (WebAuthn caps it at 64).
    public init(handle: [UInt8], name: String, displayName: String) {
        id = WebAuthnBase64URL.encode(handle)
        self.name = name
        self.displayName = displayName
    }
}

/// `PublicKeyCredentialParameters`: one algorithm the relying party accepts.
public struct PublicKeyCredentialParameters: Codable, Equatable, Sendable {
    public var type: String
    public var alg: Int

    public init(_ algorithm: COSEAlgorithm) {
        type = "public-key"
        alg = algorithm.rawValue
    }
}

/// `PublicKeyCredentialDescriptorJSON`: a credential to exclude (registration) or allow (assertion).
public struct PublicKeyCredentialDescriptor: Codable, Equatable, Sendable {
    public var type: String
    /// The credential ID, base64url.
    public var id: String
    /// Transport hints as registered (`usb`, `nfc`, `ble`, `internal`, `hybrid`…); omitted when unknown.
    public var transports: [String]?

    public init(credentialId: [UInt8], transports: [String]? = nil) {
        type = "public-key"
        id = WebAuthnBase64URL.encode(credentialId)
        self.transports = transports
    }
}

/// `AuthenticatorSelectionCriteria`.
public struct AuthenticatorSelectionCriteria: Codable, Equatable, Sendable {
    public var authenticatorAttachment: AuthenticatorAttachment?
    public var residentKey: ResidentKeyRequirement?
    /// Level 1's form of `residentKey`, kept for older clients: true exactly when it is `required`.
    public var requireResidentKey: Bool?
    public var userVerification: UserVerificationRequirement?

    public init(
        authenticatorAttachment: AuthenticatorAttachment? = nil, residentKey: ResidentKeyRequirement?,
        userVerification: UserVerificationRequirement?
    ) {
        self.authenticatorAttachment = authenticatorAttachment
        self.residentKey = residentKey
        requireResidentKey = residentKey.map { $0 == .required }
        self.userVerification = userVerification
    }
}
