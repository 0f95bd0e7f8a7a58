import CognateCore
import Foundation
import SQLKit

extension SQLTransaction: SigningKeyRepository {
    func signingKeys() async throws -> [SigningKeyRecord] {
        try await all("SELECT * FROM signing_keys ORDER BY created_at").map { row in
            SigningKeyRecord(
                kid: try row.string("kid"), privateKeyPEM: try row.string("private_key_pem"), createdAt: try row.date("created_at"))
        }
    }

    func insertSigningKey(_ key: SigningKeyRecord) async throws {
        try await insert(
            """
            INSERT INTO signing_keys (kid, private_key_pem, created_at) VALUES (\(bind: key.kid), \
            \(bind: key.privateKeyPEM), \(bind: Columns.time(key.createdAt)))
            """, conflict: .signingKey)
    }

    func deleteSigningKey(kid: String) async throws {
        try await run("DELETE FROM signing_keys WHERE kid = \(bind: kid)")
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
