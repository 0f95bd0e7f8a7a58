import CognateCore
import CognateProtocol
import Foundation

extension SQLTransaction: FederationRepository {
    func insertIdentityProvider(_ provider: IdentityProviderRecord) async throws {
        try await insert(
            """
            INSERT INTO identity_providers (pool_id, name, type, details, attribute_mapping, identifiers, created_at, \
            updated_at) VALUES (\(bind: provider.poolId), \(bind: provider.name), \(bind: provider.type.rawValue), \
            \(bind: try Columns.json(provider.details)), \(bind: try Columns.json(provider.attributeMapping)), \
            \(bind: try Columns.json(provider.identifiers)), \(bind: Columns.time(provider.createdAt)), \
            \(bind: Columns.time(provider.updatedAt)))
            """, conflict: .identityProvider)
    }

    func updateIdentityProvider(_ provider: IdentityProviderRecord) async throws {
        try await run(
            """
            UPDATE identity_providers SET details = \(bind: try Columns.json(provider.details)), \
            attribute_mapping = \(bind: try Columns.json(provider.attributeMapping)), \
            identifiers = \(bind: try Columns.json(provider.identifiers)), updated_at = \(bind: Columns.time(provider.updatedAt)) \
            WHERE pool_id = \(bind: provider.poolId) AND name = \(bind: provider.name)
            """)
    }

    func identityProvider(poolId: String, name: String) async throws -> IdentityProviderRecord? {
        try await first("SELECT * FROM identity_providers WHERE pool_id = \(bind: poolId) AND name = \(bind: name)")
            .map(Self.identityProvider(from:))
    }

    func deleteIdentityProvider(poolId: String, name: String) async throws {
        try await run("DELETE FROM identity_providers WHERE pool_id = \(bind: poolId) AND name = \(bind: name)")
    }

    func identityProviders(poolId: String, after: String?, limit: Int) async throws -> Page<IdentityProviderRecord> {
        let rows = try await all(
            """
            SELECT * FROM identity_providers WHERE pool_id = \(bind: poolId) AND name > \(bind: after ?? "") \
            ORDER BY name LIMIT \(bind: limit + 1)
            """)
        return try Self.page(rows.map(Self.identityProvider(from:)), limit: limit, key: \.name)
    }

    func insertProviderLink(_ link: ProviderLinkRecord) async throws {
        try await insert(
            """
            INSERT INTO provider_links (pool_id, provider_name, provider_user_id, user_sub, created_at) VALUES \
            (\(bind: link.poolId), \(bind: link.providerName), \(bind: link.providerUserId), \(bind: link.userSub), \
            \(bind: Columns.time(link.createdAt)))
            """, conflict: .providerLink)
    }

    func providerLink(poolId: String, providerName: String, providerUserId: String) async throws -> ProviderLinkRecord? {
        try await first(
            """
            SELECT * FROM provider_links WHERE pool_id = \(bind: poolId) AND provider_name = \(bind: providerName) \
            AND provider_user_id = \(bind: providerUserId)
            """
        ).map { row in
            ProviderLinkRecord(
                poolId: try row.string("pool_id"), providerName: try row.string("provider_name"),
                providerUserId: try row.string("provider_user_id"), userSub: try row.string("user_sub"),
                createdAt: try row.date("created_at"))
        }
    }

    func deleteProviderLink(poolId: String, providerName: String, providerUserId: String) async throws {
        try await run(
            """
            DELETE FROM provider_links WHERE pool_id = \(bind: poolId) AND provider_name = \(bind: providerName) \
            AND provider_user_id = \(bind: providerUserId)
            """)
    }

    static func identityProvider(from row: SQLRow) throws -> IdentityProviderRecord {
        IdentityProviderRecord(
            poolId: try row.string("pool_id"), name: try row.string("name"),
            type: IdentityProviderTypeType(rawValue: try row.string("type")),
            details: try Columns.decodeJSON([String: String].self, row.string("details")),
            attributeMapping: try Columns.decodeJSON([String: String].self, row.string("attribute_mapping")),
            identifiers: try Columns.decodeJSON([String].self, row.string("identifiers")),
            createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"))
    }
}
