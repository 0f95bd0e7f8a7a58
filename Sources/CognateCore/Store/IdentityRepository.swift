import Foundation

/// An identity of an identity pool: a guest (no logins) or the logins linked to it.
public struct IdentityRecord: Sendable, Equatable {
    public var identityId: String
    public var poolId: String
    public var createdAt: Date
    public var updatedAt: Date
    /// Its last login was unlinked (UnlinkIdentity): it serves no one any more.
    public var disabled: Bool
    /// Filled in by reads, oldest first; not written by `insertIdentity`.
    public var logins: [IdentityLoginRecord]

    public init(identityId: String, poolId: String, createdAt: Date, updatedAt: Date, disabled: Bool = false,
                logins: [IdentityLoginRecord] = []) {
        self.identityId = identityId
        self.poolId = poolId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.disabled = disabled
        self.logins = logins
    }

    /// Whether someone signed in owns it (a guest identity has no login).
    public var isAuthenticated: Bool { !logins.isEmpty }
}

/// One login linked to an identity: a provider (its Logins key, or the pool's developer
/// provider name) and the provider's subject for the user. A (pool, provider, subject) is
/// linked to one identity at most: the database's key decides races.
public struct IdentityLoginRecord: Sendable, Equatable {
    public var poolId: String
    public var provider: String
    public var subject: String
    public var identityId: String
    public var linkedAt: Date

    public init(poolId: String, provider: String, subject: String, identityId: String, linkedAt: Date) {
        self.poolId = poolId
        self.provider = provider
        self.subject = subject
        self.identityId = identityId
        self.linkedAt = linkedAt
    }
}

public protocol IdentityRepository: Sendable {
    /// Throws `StoreError.referenceMissing` when the pool is gone.
    func insertIdentity(_ identity: IdentityRecord) async throws
    /// The identity with its logins; `forUpdate` locks it until the transaction ends.
    func identity(id: String, forUpdate: Bool) async throws -> IdentityRecord?
    /// The pool's identities with their logins, ordered by id, starting after `after`.
    func identities(poolId: String, after: String?, limit: Int, hidingDisabled: Bool) async throws -> Page<IdentityRecord>
    /// Sets the identity's `updatedAt` and `disabled`.
    func updateIdentity(id: String, at date: Date, disabled: Bool) async throws
    /// Deletes the identity and its logins; returns whether it existed.
    @discardableResult func deleteIdentity(id: String) async throws -> Bool

    /// Throws `StoreError.conflict(.identityLogin)` when the login is linked already.
    func insertIdentityLogin(_ login: IdentityLoginRecord) async throws
    func identityLogin(poolId: String, provider: String, subject: String) async throws -> IdentityLoginRecord?
    /// Links every login of `source` to `destination`.
    func moveIdentityLogins(from source: String, to destination: String) async throws
    /// Unlinks logins of an identity: of `provider`, and only `subject`'s when given.
    func deleteIdentityLogins(identityId: String, provider: String, subject: String?) async throws
}
