import CognateIdentityProtocol
import Foundation

/// An identity pool (the `cognito-identity` API): its settings as the API describes them, the
/// roles it hands out and the principal-tag mappings of its providers.
public struct IdentityPoolRecord: Sendable, Equatable {
    public var id: String
    public var createdAt: Date
    public var updatedAt: Date
    /// The pool as DescribeIdentityPool answers it (id, name and tags included).
    public var settings: IdentityPool
    /// SetIdentityPoolRoles' settings.
    public var roles: IdentityPoolRoles
    /// SetPrincipalTagAttributeMap's settings by provider name.
    public var principalTags: [String: PrincipalTagMapping]

    public init(id: String, createdAt: Date, updatedAt: Date, settings: IdentityPool,
                roles: IdentityPoolRoles = IdentityPoolRoles(), principalTags: [String: PrincipalTagMapping] = [:]) {
        self.id = id
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.settings = settings
        self.roles = roles
        self.principalTags = principalTags
    }
}

/// The roles of an identity pool: `authenticated` / `unauthenticated` role ARNs, and role
/// mappings by login provider name.
public struct IdentityPoolRoles: Sendable, Equatable, Codable {
    public var roles: [String: String]
    public var roleMappings: [String: RoleMapping]

    public init(roles: [String: String] = [:], roleMappings: [String: RoleMapping] = [:]) {
        self.roles = roles
        self.roleMappings = roleMappings
    }
}

/// The principal tags of one provider's logins: claims by tag name, or the defaults.
public struct PrincipalTagMapping: Sendable, Equatable, Codable {
    public var useDefaults: Bool
    public var tags: [String: String]

    public init(useDefaults: Bool, tags: [String: String]) {
        self.useDefaults = useDefaults
        self.tags = tags
    }
}

public protocol IdentityPoolRepository: Sendable {
    /// Throws `StoreError.conflict(.identityPool)` when the id exists.
    func insertIdentityPool(_ pool: IdentityPoolRecord) async throws
    func identityPool(id: String) async throws -> IdentityPoolRecord?
    /// Returns whether the pool existed.
    @discardableResult func updateIdentityPool(_ pool: IdentityPoolRecord) async throws -> Bool
    /// Deletes the pool with its identities and their logins; returns whether it existed.
    @discardableResult func deleteIdentityPool(id: String) async throws -> Bool
    /// Pools ordered by id, starting after `after`.
    func identityPools(after: String?, limit: Int) async throws -> Page<IdentityPoolRecord>
}
