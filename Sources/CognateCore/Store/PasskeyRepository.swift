import Foundation

/// A passkey (WebAuthn credential) a user registered: what later assertions are checked
/// against, and what ListWebAuthnCredentials shows. Identified by its credential ID within the
/// pool.
public struct PasskeyRecord: Sendable, Equatable {
    /// The credential ID, base64url without padding, as WebAuthn's JSON carries it.
    public var credentialId: String
    public var poolId: String
    public var userSub: String
    /// The credential public key as the authenticator encoded it (COSE_Key).
    public var publicKey: [UInt8]
    /// The signature counter last seen (0: the authenticator keeps none).
    public var signCount: UInt32
    /// The BE flag at registration: a synced passkey; it never changes for a credential.
    public var backupEligible: Bool
    /// The RP ID the credential was registered for.
    public var relyingPartyId: String
    public var friendlyName: String?
    /// `platform` or `cross-platform`, as the client reported it.
    public var attachment: String?
    public var transports: [String]
    /// The authenticator model (AAGUID, UUID text).
    public var aaguid: String
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(credentialId: String, poolId: String, userSub: String, publicKey: [UInt8], signCount: UInt32,
                backupEligible: Bool, relyingPartyId: String, friendlyName: String? = nil, attachment: String? = nil,
                transports: [String] = [], aaguid: String, createdAt: Date, lastUsedAt: Date? = nil) {
        self.credentialId = credentialId
        self.poolId = poolId
        self.userSub = userSub
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.relyingPartyId = relyingPartyId
        self.friendlyName = friendlyName
        self.attachment = attachment
        self.transports = transports
        self.aaguid = aaguid
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

public protocol PasskeyRepository: Sendable {
    /// Stores a new passkey; a credential ID the pool has already is a `.passkey` conflict.
    func insertPasskey(_ passkey: PasskeyRecord) async throws
    func passkey(poolId: String, credentialId: String) async throws -> PasskeyRecord?
    /// The user's passkeys by credential ID, starting after `after`.
    func passkeys(poolId: String, userSub: String, after: String?, limit: Int) async throws -> Page<PasskeyRecord>
    func passkeyCount(poolId: String, userSub: String) async throws -> Int
    /// Records a verified assertion: the new signature counter and when.
    func recordPasskeyUse(poolId: String, credentialId: String, signCount: UInt32, at date: Date) async throws
    /// Deletes the user's passkey; false when the user has none of that ID.
    func deletePasskey(poolId: String, userSub: String, credentialId: String) async throws -> Bool
}
