import CognateCore
import Foundation

extension SQLTransaction: ClientMetadataRepository {
    func insertCIMDPolicy(_ policy: CIMDPolicyRecord) async throws {
        try await insert(
            """
            INSERT INTO cimd_policies (policy_id, pool_id, client_id, name, cache_duration, url_patterns, created_at, \
            updated_at) VALUES (\(bind: policy.policyId), \(bind: policy.poolId), \(bind: policy.clientId), \
            \(bind: policy.name), \(bind: Int64(policy.cacheDuration)), \(bind: try Columns.json(policy.urlPatterns)), \
            \(bind: Columns.time(policy.createdAt)), \(bind: Columns.time(policy.updatedAt)))
            """, conflict: .cimdPolicy)
    }

    func cimdPolicy(id: String) async throws -> CIMDPolicyRecord? {
        try await first("SELECT * FROM cimd_policies WHERE policy_id = \(bind: id)").map(Self.cimdPolicy(from:))
    }

    @discardableResult
    func updateCIMDPolicy(_ policy: CIMDPolicyRecord) async throws -> Bool {
        !(try await all(
            """
            UPDATE cimd_policies SET client_id = \(bind: policy.clientId), name = \(bind: policy.name), \
            cache_duration = \(bind: Int64(policy.cacheDuration)), url_patterns = \(bind: try Columns.json(policy.urlPatterns)), \
            updated_at = \(bind: Columns.time(policy.updatedAt)) WHERE policy_id = \(bind: policy.policyId) RETURNING policy_id
            """).isEmpty)
    }

    @discardableResult
    func deleteCIMDPolicy(id: String) async throws -> Bool {
        !(try await all("DELETE FROM cimd_policies WHERE policy_id = \(bind: id) RETURNING policy_id").isEmpty)
    }

    func cimdPolicies(poolId: String, after: String?, limit: Int) async throws -> Page<CIMDPolicyRecord> {
        let rows = try await all(
            """
            SELECT * FROM cimd_policies WHERE pool_id = \(bind: poolId) AND policy_id > \(bind: after ?? "") \
            ORDER BY policy_id LIMIT \(bind: Int64(limit + 1))
            """)
        return Self.page(try rows.map(Self.cimdPolicy(from:)), limit: limit, key: \.policyId)
    }

    func allCIMDPolicies() async throws -> [CIMDPolicyRecord] {
        try await all("SELECT * FROM cimd_policies ORDER BY pool_id, policy_id").map(Self.cimdPolicy(from:))
    }

    func cimdPolicyCount(poolId: String) async throws -> Int {
        try await first("SELECT COUNT(*) AS n FROM cimd_policies WHERE pool_id = \(bind: poolId)")?.int("n") ?? 0
    }

    func saveClientMetadataURL(_ url: ClientMetadataURLRecord) async throws {
        try await run(
            """
            INSERT INTO cimd_urls (policy_id, url, cached_at, expires_at, document) VALUES (\(bind: url.policyId), \
            \(bind: url.url), \(bind: url.cachedAt.map { Columns.time($0) }), \(bind: url.expiresAt.map { Columns.time($0) }), \
            \(bind: url.document)) ON CONFLICT (policy_id, url) DO UPDATE SET cached_at = excluded.cached_at, \
            expires_at = excluded.expires_at, document = excluded.document
            """)
    }

    func clientMetadataURL(policyId: String, url: String) async throws -> ClientMetadataURLRecord? {
        try await first("SELECT * FROM cimd_urls WHERE policy_id = \(bind: policyId) AND url = \(bind: url)")
            .map(Self.clientMetadataURL(from:))
    }

    func clientMetadataURLs(policyId: String, after: String?, limit: Int) async throws -> Page<ClientMetadataURLRecord> {
        let rows = try await all(
            """
            SELECT * FROM cimd_urls WHERE policy_id = \(bind: policyId) AND url > \(bind: after ?? "") \
            ORDER BY url LIMIT \(bind: Int64(limit + 1))
            """)
        return Self.page(try rows.map(Self.clientMetadataURL(from:)), limit: limit, key: \.url)
    }

    @discardableResult
    func deleteClientMetadataURL(policyId: String, url: String) async throws -> Bool {
        !(try await all(
            "DELETE FROM cimd_urls WHERE policy_id = \(bind: policyId) AND url = \(bind: url) RETURNING policy_id").isEmpty)
    }

    static func cimdPolicy(from row: SQLRow) throws -> CIMDPolicyRecord {
        CIMDPolicyRecord(
            poolId: try row.string("pool_id"), policyId: try row.string("policy_id"), clientId: try row.string("client_id"),
            name: try row.string("name"), cacheDuration: try row.int("cache_duration"),
            urlPatterns: try Columns.decodeJSON([String].self, row.string("url_patterns")),
            createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"))
    }

    static func clientMetadataURL(from row: SQLRow) throws -> ClientMetadataURLRecord {
        ClientMetadataURLRecord(
            policyId: try row.string("policy_id"), url: try row.string("url"), cachedAt: try row.optionalDate("cached_at"),
            expiresAt: try row.optionalDate("expires_at"), document: try row.optionalString("document"))
    }
}
