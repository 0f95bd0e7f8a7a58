import CognateCore
import CognateProtocol


extension SQLTransaction: PoolRepository {
    func insertPool(_ pool: PoolRecord) async throws {
        try await insert(
            """
            INSERT INTO user_pools (id, name, created_at, updated_at, settings, mfa, pin_policy, risk_configurations, \
            log_delivery, session_configuration, custom_registration) VALUES (\(bind: pool.id), \
            \(bind: pool.name), \(bind: Columns.time(pool.createdAt)), \(bind: Columns.time(pool.updatedAt)), \
            \(bind: try Columns.json(pool.settings)), \(bind: try Columns.json(pool.mfa)), \
            \(bind: try pool.pinPolicy.map(Columns.json)), \(bind: try Self.riskColumn(pool)), \
            \(bind: try pool.logDelivery.map(Columns.json)), \(bind: try pool.sessions.map(Columns.json)), \
            \(bind: try pool.customRegistration.map(Columns.json)))
            """, conflict: .pool)
    }

    func pool(id: String) async throws -> PoolRecord? {
        try await first("SELECT * FROM user_pools WHERE id = \(bind: id)").map(Self.pool(from:))
    }

    func updatePool(_ pool: PoolRecord) async throws {
        try await run(
            """
            UPDATE user_pools SET name = \(bind: pool.name), updated_at = \(bind: Columns.time(pool.updatedAt)), \
            settings = \(bind: try Columns.json(pool.settings)), mfa = \(bind: try Columns.json(pool.mfa)), \
            pin_policy = \(bind: try pool.pinPolicy.map(Columns.json)), risk_configurations = \(bind: try Self.riskColumn(pool)), \
            log_delivery = \(bind: try pool.logDelivery.map(Columns.json)), \
            session_configuration = \(bind: try pool.sessions.map(Columns.json)), \
            custom_registration = \(bind: try pool.customRegistration.map(Columns.json)) WHERE id = \(bind: pool.id)
            """)
    }

    func deletePool(id: String) async throws {
        try await run("DELETE FROM signing_keys WHERE pool_id = \(bind: id)")
        try await run("DELETE FROM user_pools WHERE id = \(bind: id)")
    }

    func listPools(after: String?, limit: Int) async throws -> Page<PoolRecord> {
        let rows = try await all(
            "SELECT * FROM user_pools WHERE id > \(bind: after ?? "") ORDER BY id LIMIT \(bind: limit + 1)")
        return try Self.page(rows.map(Self.pool(from:)), limit: limit, key: \.id)
    }

    static func pool(from row: SQLRow) throws -> PoolRecord {
        PoolRecord(
            id: try row.string("id"), name: try row.string("name"), createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"), settings: try Columns.decodeJSON(UserPoolType.self, row.string("settings")),
            mfa: try row.optionalString("mfa").map { try Columns.decodeJSON(PoolMfaSettings.self, $0) } ?? PoolMfaSettings(),
            pinPolicy: try row.optionalString("pin_policy").map { try Columns.decodeJSON(PinPolicy.self, $0) },
            riskConfigurations: try row.optionalString("risk_configurations")
                .map { try Columns.decodeJSON([String: RiskConfigurationType].self, $0) } ?? [:],
            logDelivery: try row.optionalString("log_delivery").map { try Columns.decodeJSON([LogConfigurationType].self, $0) },
            sessions: try row.optionalString("session_configuration")
                .map { try Columns.decodeJSON(PoolSessionSettings.self, $0) },
            customRegistration: try row.optionalString("custom_registration")
                .map { try Columns.decodeJSON(CustomRegistrationConfiguration.self, $0) })
    }

    private static func riskColumn(_ pool: PoolRecord) throws -> String? {
        pool.riskConfigurations.isEmpty ? nil : try Columns.json(pool.riskConfigurations)
    }

    /// Trims a `limit + 1` result to a page, with the last key as continuation if more exist.
    static func page<Item>(_ items: [Item], limit: Int, key: (Item) -> String) -> Page<Item> {
        guard items.count > limit else { return Page(items: items, next: nil) }
        let kept = Array(items.prefix(limit))
        return Page(items: kept, next: kept.last.map(key))
    }
}
