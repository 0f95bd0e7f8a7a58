import Foundation

/// Durable state behind the use cases. Implemented by CognateStorage over SQL; the same
/// conformance suite runs against every implementation.
///
/// Every use case that changes state runs in one `write` transaction: it commits when the
/// closure returns and rolls back when it throws, so a request either happens entirely or not
/// at all. Races (two sign-ups of one username, two uses of one code) are decided inside the
/// database by unique keys and row locks, never by a read followed by a write.
public protocol Store: AtomicWrites {
    func write<Result: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> Result
    ) async throws -> Result

    /// Runs read-only work; implementations may skip the transaction.
    func read<Result: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> Result
    ) async throws -> Result

    /// Whether the database answers (for readiness checks).
    func ping() async throws
}

/// Everything a use case may do inside a transaction.
public typealias StoreTransaction = PoolRepository & ClientRepository & UserRepository & CodeRepository
    & TokenFamilyRepository & OutboxRepository & SigningKeyRepository & ServerSecretRepository
    & CounterRepository & AuthSessionRepository & SignInLockoutRepository & GroupRepository & HousekeepingRepository
    & ChangeFeedRepository & MessageQueueRepository & FunctionRepository & MfaRepository
    & DeviceRepository & OAuthRepository & FederationRepository & ImportJobRepository & TermsRepository
    & AuthEventRepository & ManagedLoginBrandingRepository & PasskeyRepository & SessionRepository
    & IdentityPoolRepository & IdentityRepository & ClientMetadataRepository

/// A failure the use cases react to; every other error from a store is internal.
///
/// After either error the transaction cannot continue (PostgreSQL aborts it): rethrow it, or
/// throw a `CognitoError` for it.
public enum StoreError: Error, Equatable, Sendable {
    /// A unique key refused the write; the associated value names the key.
    case conflict(UniqueKey)
    /// The write refers to a pool, client or user that no longer exists (deleted by another
    /// request, possibly on another node, after this one read it).
    case referenceMissing
    /// A value holds the NUL character (U+0000), which no record can hold (PostgreSQL's text
    /// cannot): the request is refused whatever it does with the value, on every store alike.
    case unstorableText

    /// What a caller is told of ``unstorableText``.
    public static let unstorableTextMessage = "Values must not contain the NUL character (U+0000)."
}

public enum UniqueKey: String, Sendable {
    case username
    case signInName
    case pool
    case client
    case signingKey
    case serverSecret
    case tokenFamily
    case authSession
    case group
    case domain
    case resourceServer
    case identityProvider
    case providerLink
    case terms
    case managedLoginBranding
    case passkey
    case identityPool
    case identityLogin
    case cimdPolicy
}

/// A page of a keyset-paginated listing: `next` is the key to continue after, nil on the last page.
public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    public var next: String?

    public init(items: [Item], next: String?) {
        self.items = items
        self.next = next
    }
}
