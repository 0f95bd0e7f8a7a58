import CognateCore
import CognateProtocol
import Foundation

extension SQLTransaction: AuthEventRepository {
    func insertAuthEvent(_ record: AuthEventRecord) async throws {
        try await run(
            """
            INSERT INTO auth_events (event_id, pool_id, user_sub, created_at, feedback_token_hash, record) VALUES \
            (\(bind: record.event.eventId ?? ""), \(bind: record.poolId), \(bind: record.userSub), \
            \(bind: Columns.time(record.event.creationDate ?? Date())), \(bind: record.feedbackTokenHash), \
            \(bind: try Columns.json(record.event)))
            """)
    }

    func authEvent(poolId: String, eventId: String) async throws -> AuthEventRecord? {
        try await first(
            "SELECT * FROM auth_events WHERE pool_id = \(bind: poolId) AND event_id = \(bind: eventId)"
        ).map(Self.authEvent(from:))
    }

    func updateAuthEvent(_ record: AuthEventRecord) async throws {
        try await run(
            """
            UPDATE auth_events SET record = \(bind: try Columns.json(record.event)), \
            feedback_token_hash = \(bind: record.feedbackTokenHash) WHERE event_id = \(bind: record.event.eventId ?? "")
            """)
    }

    func authEvents(poolId: String, userSub: String, after: String?, limit: Int) async throws -> Page<AuthEventRecord> {
        let rows = try await all(
            """
            SELECT * FROM auth_events WHERE pool_id = \(bind: poolId) AND user_sub = \(bind: userSub) \
            AND event_id < \(bind: after ?? "~") ORDER BY event_id DESC LIMIT \(bind: limit + 1)
            """)
        return try Self.page(rows.map(Self.authEvent(from:)), limit: limit, key: { $0.event.eventId ?? "" })
    }

    static func authEvent(from row: SQLRow) throws -> AuthEventRecord {
        AuthEventRecord(
            poolId: try row.string("pool_id"), userSub: try row.string("user_sub"),
            event: try Columns.decodeJSON(AuthEventType.self, row.string("record")),
            feedbackTokenHash: try row.optionalString("feedback_token_hash"))
    }
}

extension SQLTransaction: ManagedLoginBrandingRepository {
    func insertManagedLoginBranding(_ branding: ManagedLoginBrandingType, clientId: String) async throws {
        try await insert(
            """
            INSERT INTO managed_login_brandings (branding_id, pool_id, client_id, record) VALUES \
            (\(bind: branding.managedLoginBrandingId ?? ""), \(bind: branding.userPoolId ?? ""), \
            \(bind: clientId), \(bind: try Columns.json(branding)))
            """, conflict: .managedLoginBranding)
    }

    func updateManagedLoginBranding(_ branding: ManagedLoginBrandingType) async throws {
        try await run(
            """
            UPDATE managed_login_brandings SET record = \(bind: try Columns.json(branding)) \
            WHERE branding_id = \(bind: branding.managedLoginBrandingId ?? "")
            """)
    }

    func managedLoginBranding(id: String) async throws -> ManagedLoginBrandingType? {
        try await first("SELECT record FROM managed_login_brandings WHERE branding_id = \(bind: id)")
            .map { try Columns.decodeJSON(ManagedLoginBrandingType.self, $0.string("record")) }
    }

    func managedLoginBranding(clientId: String) async throws -> ManagedLoginBrandingType? {
        try await first("SELECT record FROM managed_login_brandings WHERE client_id = \(bind: clientId)")
            .map { try Columns.decodeJSON(ManagedLoginBrandingType.self, $0.string("record")) }
    }

    func deleteManagedLoginBranding(id: String) async throws {
        try await run("DELETE FROM managed_login_brandings WHERE branding_id = \(bind: id)")
    }
}
