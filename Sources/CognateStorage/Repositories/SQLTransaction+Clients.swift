import CognateCore
import CognateProtocol


extension SQLTransaction: ClientRepository {
    func insertClient(_ client: ClientRecord) async throws {
        try await insert(
            """
            INSERT INTO app_clients (client_id, pool_id, name, created_at, updated_at, settings, extra_secrets, \
            session_configuration) VALUES \
            (\(bind: client.clientId), \(bind: client.poolId), \(bind: client.name), \(bind: Columns.time(client.createdAt)), \
            \(bind: Columns.time(client.updatedAt)), \(bind: try Columns.json(client.settings)), \
            \(bind: try Self.rotation(of: client)), \(bind: client.ssoSessionMaxValidityMinutes.map(String.init)))
            """, conflict: .client)
    }

    func client(id: String) async throws -> ClientRecord? {
        try await first("SELECT * FROM app_clients WHERE client_id = \(bind: id)").map(Self.client(from:))
    }

    func updateClient(_ client: ClientRecord) async throws {
        try await run(
            """
            UPDATE app_clients SET name = \(bind: client.name), updated_at = \(bind: Columns.time(client.updatedAt)), \
            settings = \(bind: try Columns.json(client.settings)), \
            extra_secrets = \(bind: try Self.rotation(of: client)), \
            session_configuration = \(bind: client.ssoSessionMaxValidityMinutes.map(String.init)) \
            WHERE client_id = \(bind: client.clientId)
            """)
    }

    func deleteClient(poolId: String, clientId: String) async throws {
        // What belongs to the client only goes with it (these tables reference the pool alone).
        try await run("DELETE FROM managed_login_brandings WHERE pool_id = \(bind: poolId) AND client_id = \(bind: clientId)")
        try await run("DELETE FROM terms WHERE pool_id = \(bind: poolId) AND client_id = \(bind: clientId)")
        try await run("DELETE FROM app_clients WHERE pool_id = \(bind: poolId) AND client_id = \(bind: clientId)")
    }

    func listClients(poolId: String, after: String?, limit: Int) async throws -> Page<ClientRecord> {
        let rows = try await all(
            """
            SELECT * FROM app_clients WHERE pool_id = \(bind: poolId) AND client_id > \(bind: after ?? "") \
            ORDER BY client_id LIMIT \(bind: limit + 1)
            """)
        return try Self.page(rows.map(Self.client(from:)), limit: limit, key: \.clientId)
    }

    /// The rotation column of a client (nil when it never rotated).
    static func rotation(of client: ClientRecord) throws -> String? {
        guard client.mainSecret != nil || !client.extraSecrets.isEmpty else { return nil }
        return try Columns.json(ClientSecretRotation(main: client.mainSecret, added: client.extraSecrets))
    }

    static func client(from row: SQLRow) throws -> ClientRecord {
        let rotation = try row.optionalString("extra_secrets").map { try Columns.decodeJSON(ClientSecretRotation.self, $0) }
        return ClientRecord(
            poolId: try row.string("pool_id"), clientId: try row.string("client_id"), name: try row.string("name"),
            createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"),
            settings: try Columns.decodeJSON(UserPoolClientType.self, row.string("settings")),
            extraSecrets: rotation?.added ?? [], mainSecret: rotation?.main,
            ssoSessionMaxValidityMinutes: try row.optionalString("session_configuration").flatMap { Int($0) })
    }
}
