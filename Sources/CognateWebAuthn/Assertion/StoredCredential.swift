/// What a relying party kept from a registration, as an assertion needs it.
public struct StoredCredential: Equatable, Sendable {
    public var id: [UInt8]
    /// The COSE_Key from `RegisteredCredential.publicKey`.
    public var publicKey: [UInt8]
    /// The last signature counter accepted for this credential.
    public var signCount: UInt32
    /// The user handle of the credential's owner; when set, a user handle in the assertion must equal it.
    public var userHandle: [UInt8]?
    /// BE as registered; when set, the assertion's BE flag must equal it (WebAuthn §7.2 step 19).
    public var isBackupEligible: Bool?

    public init(
        id: [UInt8], publicKey: [UInt8], signCount: UInt32, userHandle: [UInt8]? = nil, isBackupEligible: Bool? = nil
    ) {
        self.id = id
        self.publicKey = publicKey
        self.signCount = signCount
        self.userHandle = userHandle
        self.isBackupEligible = isBackupEligible
    }
}
