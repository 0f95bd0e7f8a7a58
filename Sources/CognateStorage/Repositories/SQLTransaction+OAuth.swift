import CognateCore
import CognateProtocol
import Foundation

extension SQLTransaction: OAuthRepository {
    func insertDomain(_ domain: DomainRecord) async throws {
        try await insert(
            """
            INSERT INTO user_pool_domains (domain, pool_id, created_at) VALUES (\(bind: domain.domain), \
            \(bind: domain.poolId), \(bind: Columns.time(domain.createdAt)))
            """, conflict: .domain)
    }

    func domain(named name: String) async throws -> DomainRecord? {
        try await first("SELECT * FROM user_pool_domains WHERE domain = \(bind: name)").map(Self.domain(from:))
    }

    func domain(ofPool poolId: String) async throws -> DomainRecord? {
        try await first("SELECT * FROM user_pool_domains WHERE pool_id = \(bind: poolId)").map(Self.domain(from:))
    }

    func deleteDomain(named name: String) async throws {
        try await run("DELETE FROM user_pool_domains WHERE domain = \(bind: name)")
    }

    func insertResourceServer(_ server: ResourceServerRecord) async throws {
        try await insert(
            """
            INSERT INTO resource_servers (pool_id, identifier, name, scopes) VALUES (\(bind: server.poolId), \
            \(bind: server.identifier), \(bind: server.name), \(bind: try Columns.json(server.scopes)))
            """, conflict: .resourceServer)
    }

    func updateResourceServer(_ server: ResourceServerRecord) async throws {
        try await run(
            """
            UPDATE resource_servers SET name = \(bind: server.name), scopes = \(bind: try Columns.json(server.scopes)) \
            WHERE pool_id = \(bind: server.poolId) AND identifier = \(bind: server.identifier)
            """)
    }

    func resourceServer(poolId: String, identifier: String) async throws -> ResourceServerRecord? {
        try await first(
            "SELECT * FROM resource_servers WHERE pool_id = \(bind: poolId) AND identifier = \(bind: identifier)"
        ).map(Self.resourceServer(from:))
    }

    func deleteResourceServer(poolId: String, identifier: String) async throws {
        try await run("DELETE FROM resource_servers WHERE pool_id = \(bind: poolId) AND identifier = \(bind: identifier)")
    }

    func resourceServers(poolId: String, after: String?, limit: Int) async throws -> Page<ResourceServerRecord> {
        let rows = try await all(
            """
            SELECT * FROM resource_servers WHERE pool_id = \(bind: poolId) AND identifier > \(bind: after ?? "") \
            ORDER BY identifier LIMIT \(bind: limit + 1)
            """)
        return try Self.page(rows.map(Self.resourceServer(from:)), limit: limit, key: \.identifier)
    }

    func saveUICustomization(_ customization: UICustomizationRecord) async throws {
        let updated = Columns.time(customization.updatedAt)
        try await run(
            """
            INSERT INTO ui_customizations (pool_id, client_id, css, image, version, created_at, updated_at) VALUES \
            (\(bind: customization.poolId), \(bind: customization.clientId), \(bind: customization.css), \
            \(bind: customization.image), \(bind: customization.version), \(bind: Columns.time(customization.createdAt)), \
            \(bind: updated)) ON CONFLICT (pool_id, client_id) DO UPDATE SET css = \(bind: customization.css), \
            image = \(bind: customization.image), version = \(bind: customization.version), updated_at = \(bind: updated)
            """)
    }

    func uiCustomization(poolId: String, clientId: String) async throws -> UICustomizationRecord? {
        try await first(
            "SELECT * FROM ui_customizations WHERE pool_id = \(bind: poolId) AND client_id = \(bind: clientId)"
        ).map { row in
            UICustomizationRecord(
                poolId: try row.string("pool_id"), clientId: try row.string("client_id"), css: try row.optionalString("css"),
                image: try row.optionalString("image"), version: try row.string("version"),
                createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"))
        }
    }

    static func domain(from row: SQLRow) throws -> DomainRecord {
        DomainRecord(domain: try row.string("domain"), poolId: try row.string("pool_id"), createdAt: try row.date("created_at"))
    }

    static func resourceServer(from row: SQLRow) throws -> ResourceServerRecord {
        ResourceServerRecord(
            poolId: try row.string("pool_id"), identifier: try row.string("identifier"), name: try row.string("name"),
            scopes: try Columns.decodeJSON([ResourceServerScopeType].self, row.string("scopes")))
    }
}
