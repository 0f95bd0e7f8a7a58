import CognateCore
import Foundation


extension SQLTransaction: SigningKeyRepository {
    func signingKeys(poolId: String) async throws -> [SigningKeyRecord] {
        try await all(
            "SELECT * FROM signing_keys WHERE pool_id = \(bind: poolId) OR pool_id IS NULL ORDER BY created_at, kid"
        ).map(Self.signingKey(from:))
    }

    func allSigningKeys() async throws -> [SigningKeyRecord] {
        try await all("SELECT * FROM signing_keys ORDER BY created_at, kid").map(Self.signingKey(from:))
    }

    func insertSigningKey(_ key: SigningKeyRecord) async throws {
        try await insert(
            """
            INSERT INTO signing_keys (kid, pool_id, private_key_pem, created_at, activates_at, expires_at, retired_at) \
            VALUES (\(bind: key.kid), \(bind: key.poolId), \(bind: key.privateKeyPEM), \(bind: Columns.time(key.createdAt)), \
            \(bind: Columns.time(key.activatesAt)), \(bind: key.expiresAt.map(Columns.time)), \
            \(bind: key.retiredAt.map(Columns.time)))
            """, conflict: .signingKey)
    }

    func expireSigningKeys(poolId: String, except kid: String, at date: Date) async throws {
        try await run(
            """
            UPDATE signing_keys SET expires_at = \(bind: Columns.time(date)) WHERE pool_id = \(bind: poolId) \
            AND kid <> \(bind: kid) AND expires_at IS NULL
            """)
    }

    func retireSigningKey(kid: String, at date: Date) async throws -> SigningKeyRecord? {
        try await first(
            "UPDATE signing_keys SET retired_at = \(bind: Columns.time(date)) WHERE kid = \(bind: kid) RETURNING *"
        ).map(Self.signingKey(from:))
    }

    static func signingKey(from row: SQLRow) throws -> SigningKeyRecord {
        let created = try row.date("created_at")
        return SigningKeyRecord(
            kid: try row.string("kid"), poolId: try row.optionalString("pool_id"),
            privateKeyPEM: try row.string("private_key_pem"), createdAt: created,
            activatesAt: try row.optionalDate("activates_at") ?? created, expiresAt: try row.optionalDate("expires_at"),
            retiredAt: try row.optionalDate("retired_at"))
    }
}

extension SQLTransaction: ServerSecretRepository {
    func serverSecret(named name: String) async throws -> [UInt8]? {
        try await first("SELECT value FROM server_secrets WHERE name = \(bind: name)").map { try Columns.bytes($0.string("value")) }
    }

    func insertServerSecretIfAbsent(named name: String, value: [UInt8]) async throws -> [UInt8] {
        try await run(
            "INSERT INTO server_secrets (name, value) VALUES (\(bind: name), \(bind: Columns.hex(value))) ON CONFLICT (name) DO NOTHING")
        guard let stored = try await serverSecret(named: name) else { throw StorageError.corrupt("Secret \(name) vanished") }
        return stored
    }
}

extension SQLTransaction: CounterRepository {
    func incrementCounter(key: String, windowStart: Date) async throws -> Int {
        let start = Columns.time(windowStart)
        return try await first(
            """
            INSERT INTO counters (key, window_start, count) VALUES (\(bind: key), \(bind: start), 1) \
            ON CONFLICT (key) DO UPDATE SET count = CASE WHEN counters.window_start = excluded.window_start \
            THEN counters.count + 1 ELSE 1 END, window_start = excluded.window_start RETURNING count
            """)?.int("count") ?? 1
    }
}
