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

public protocol OAuthRepository: Sendable {
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
