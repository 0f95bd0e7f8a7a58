import CognateProtocol
import Foundation

/// A pool's domain: the name its hosted pages and OAuth endpoints answer to.
public struct DomainRecord: Sendable, Equatable {
    public var domain: String
    public var poolId: String
    public var createdAt: Date

    public init(domain: String, poolId: String, createdAt: Date) {
        self.domain = domain
        self.poolId = poolId
        self.createdAt = createdAt
    }
}

/// A resource server of a pool: an API identified by `identifier` whose custom scopes
/// (`<identifier>/<scope name>`) app clients may be granted.
public struct ResourceServerRecord: Sendable, Equatable {
    public var poolId: String
    public var identifier: String
    public var name: String
    public var scopes: [ResourceServerScopeType]

    public init(poolId: String, identifier: String, name: String, scopes: [ResourceServerScopeType]) {
        self.poolId = poolId
        self.identifier = identifier
        self.name = name
        self.scopes = scopes
    }
}

/// How the hosted pages look for a pool (`clientId` "ALL") or one app client: CSS added after
/// the pages' own, and a logo (base64 PNG or JPEG).
public struct UICustomizationRecord: Sendable, Equatable {
    public var poolId: String
    public var clientId: String
    public var css: String?
    public var image: String?
    /// Changes with every update (the logo's URL carries it).
    public var version: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(poolId: String, clientId: String, css: String?, image: String?, version: String, createdAt: Date,
                updatedAt: Date) {
        self.poolId = poolId
        self.clientId = clientId
        self.css = css
        self.image = image
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

public protocol OAuthRepository: Sendable {
    /// Inserts or replaces the customization of (pool, client).
    func saveUICustomization(_ customization: UICustomizationRecord) async throws
    func uiCustomization(poolId: String, clientId: String) async throws -> UICustomizationRecord?
    /// Throws `StoreError.conflict(.domain)` when the domain is taken or the pool has one.
    func insertDomain(_ domain: DomainRecord) async throws
    func domain(named: String) async throws -> DomainRecord?
    func domain(ofPool poolId: String) async throws -> DomainRecord?
    func deleteDomain(named: String) async throws
    /// Throws `StoreError.conflict(.resourceServer)` when the identifier exists in the pool.
    func insertResourceServer(_ server: ResourceServerRecord) async throws
    func updateResourceServer(_ server: ResourceServerRecord) async throws
    func resourceServer(poolId: String, identifier: String) async throws -> ResourceServerRecord?
    func deleteResourceServer(poolId: String, identifier: String) async throws
    /// The pool's resource servers by identifier, starting after `after`.
    func resourceServers(poolId: String, after: String?, limit: Int) async throws -> Page<ResourceServerRecord>
}
