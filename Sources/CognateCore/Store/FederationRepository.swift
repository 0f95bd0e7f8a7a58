import CognateProtocol
import Foundation

/// An identity provider of a pool (CreateIdentityProvider): where its users sign in, and how
/// their claims become the pool's attributes.
public struct IdentityProviderRecord: Sendable, Equatable {
    public var poolId: String
    public var name: String
    public var type: IdentityProviderTypeType
    /// Cognito's ProviderDetails (`client_id`, `client_secret`, `authorize_scopes`, `oidc_issuer`,
    /// `authorize_url`, `token_url`, `attributes_url` …).
    public var details: [String: String]
    /// Pool attribute → provider claim.
    public var attributeMapping: [String: String]
    public var identifiers: [String]
    public var createdAt: Date
    public var updatedAt: Date

    public init(poolId: String, name: String, type: IdentityProviderTypeType, details: [String: String],
                attributeMapping: [String: String], identifiers: [String], createdAt: Date, updatedAt: Date) {
        self.poolId = poolId
        self.name = name
        self.type = type
        self.details = details
        self.attributeMapping = attributeMapping
        self.identifiers = identifiers
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A provider's user (`providerUserId`, its `sub`) signing in as the pool user `userSub`.
public struct ProviderLinkRecord: Sendable, Equatable {
    public var poolId: String
    public var providerName: String
    public var providerUserId: String
    public var userSub: String
    public var createdAt: Date

    public init(poolId: String, providerName: String, providerUserId: String, userSub: String, createdAt: Date) {
        self.poolId = poolId
        self.providerName = providerName
        self.providerUserId = providerUserId
        self.userSub = userSub
        self.createdAt = createdAt
    }
}

public protocol FederationRepository: Sendable {
    /// Throws `StoreError.conflict(.identityProvider)` when the name exists in the pool.
    func insertIdentityProvider(_ provider: IdentityProviderRecord) async throws
    func updateIdentityProvider(_ provider: IdentityProviderRecord) async throws
    func identityProvider(poolId: String, name: String) async throws -> IdentityProviderRecord?
    func deleteIdentityProvider(poolId: String, name: String) async throws
    /// The pool's providers by name, starting after `after`.
    func identityProviders(poolId: String, after: String?, limit: Int) async throws -> Page<IdentityProviderRecord>
    /// Throws `StoreError.conflict(.providerLink)` when the provider's user is linked already.
    func insertProviderLink(_ link: ProviderLinkRecord) async throws
    func providerLink(poolId: String, providerName: String, providerUserId: String) async throws -> ProviderLinkRecord?
    func deleteProviderLink(poolId: String, providerName: String, providerUserId: String) async throws
}
