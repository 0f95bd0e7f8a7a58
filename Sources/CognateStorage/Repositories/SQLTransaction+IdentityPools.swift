import CognateCore
import CognateIdentityProtocol
import Foundation

extension SQLTransaction: IdentityPoolRepository {
    func insertIdentityPool(_ pool: IdentityPoolRecord) async throws {
        try await insert(
            """
            INSERT INTO identity_pools (id, settings, roles, principal_tags, created_at, updated_at) VALUES (\
            \(bind: pool.id), \(bind: try Columns.json(pool.settings)), \(bind: try Columns.json(pool.roles)), \
            \(bind: try Columns.json(pool.principalTags)), \(bind: Columns.time(pool.createdAt)), \
            \(bind: Columns.time(pool.updatedAt)))
            """, conflict: .identityPool)
    }

    func identityPool(id: String) async throws -> IdentityPoolRecord? {
        try await first("SELECT * FROM identity_pools WHERE id = \(bind: id)").map(Self.identityPool(from:))
    }

    @discardableResult
    func updateIdentityPool(_ pool: IdentityPoolRecord) async throws -> Bool {
        !(try await all(
            """
            UPDATE identity_pools SET settings = \(bind: try Columns.json(pool.settings)), \
            roles = \(bind: try Columns.json(pool.roles)), principal_tags = \(bind: try Columns.json(pool.principalTags)), \
            updated_at = \(bind: Columns.time(pool.updatedAt)) WHERE id = \(bind: pool.id) RETURNING id
            """).isEmpty)
    }

    @discardableResult
    func deleteIdentityPool(id: String) async throws -> Bool {
        !(try await all("DELETE FROM identity_pools WHERE id = \(bind: id) RETURNING id").isEmpty)
    }

    func identityPools(after: String?, limit: Int) async throws -> Page<IdentityPoolRecord> {
        let rows = try await all(
            "SELECT * FROM identity_pools WHERE id > \(bind: after ?? "") ORDER BY id LIMIT \(bind: limit + 1)")
        return Self.page(try rows.map(Self.identityPool(from:)), limit: limit, key: \.id)
    }

    static func identityPool(from row: SQLRow) throws -> IdentityPoolRecord {
        IdentityPoolRecord(
            id: try row.string("id"), createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"),
            settings: try Columns.decodeJSON(IdentityPool.self, row.string("settings")),
            roles: try Columns.decodeJSON(IdentityPoolRoles.self, row.string("roles")),
            principalTags: try Columns.decodeJSON([String: PrincipalTagMapping].self, row.string("principal_tags")))
    }
}
