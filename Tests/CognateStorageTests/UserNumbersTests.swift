@testable import CognateStorage
import CognateCore
import Foundation
import Logging
import Testing

/// Migration022UserNumbers on a database with users in it, and the numbers handed out after it;
/// run on SQLite here and on PostgreSQL by `PostgresStoreTests`.
struct UserNumbersTests {
    @Test func migrationKeepsEveryUsersRowsOnSQLite() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cognate-\(UUID().uuidString).sqlite").path
        try await Self.migrationKeepsEveryUsersRows(try await SQLStore.openBackend(path, logger: Logger(label: "test")))
    }

    /// Users written by the schema before the migration (two pools, one user each with
    /// attributes, a sign-in name and a code) are found whole after it, by every key, and a
    /// user's deletion still takes its rows with it.
    static func migrationKeepsEveryUsersRows(_ backend: any SQLBackend) async throws {
        try await Migrator.migrate(backend, upTo: 21)
        _ = try await backend.write { session in
            for (pool, sub) in [("p1", "sub-1"), ("p2", "sub-2")] {
                try await session.execute(
                    "INSERT INTO user_pools (id, name, created_at, updated_at, settings) VALUES (\(bind: pool), 'pool', 0, 0, '{}')")
                try await session.execute(
                    """
                    INSERT INTO users (pool_id, sub, username, username_key, status, enabled, created_at, updated_at) \
                    VALUES (\(bind: pool), \(bind: sub), \(bind: "name-" + sub), \(bind: "name-" + sub), 'CONFIRMED', 1, 0, 0)
                    """)
                for (name, value) in [("email", sub + "@Example.com"), ("email_verified", "true")] {
                    try await session.execute(
                        """
                        INSERT INTO user_attributes (pool_id, user_sub, name, value, value_folded) VALUES (\(bind: pool), \
                        \(bind: sub), \(bind: name), \(bind: value), \(bind: value.lowercased()))
                        """)
                }
                try await session.execute(
                    "INSERT INTO sign_in_names (pool_id, name_key, user_sub) VALUES (\(bind: pool), \(bind: sub + "@example.com"), \(bind: sub))")
                try await session.execute(
                    """
                    INSERT INTO codes (pool_id, user_sub, purpose, code_hash, created_at, expires_at, attempts_since) \
                    VALUES (\(bind: pool), \(bind: sub), \(bind: CodePurpose.signUp.rawValue), \(bind: "hash-" + sub), 0, 4000000000, 0)
                    """)
            }
            return 0
        }
        #expect(try await Migrator.migrate(backend) == Array(22...Migrator.latestVersion))
        let store = SQLStore(backend: backend)
        for (pool, sub) in [("p1", "sub-1"), ("p2", "sub-2")] {
            let user = try #require(try await store.read { try await $0.user(poolId: pool, sub: sub, forUpdate: false) })
            #expect(user.username == "name-" + sub)
            #expect(user.attributes == ["email": sub + "@Example.com", "email_verified": "true"])
            let bySignInName = try await store.read { try await $0.user(poolId: pool, signInName: sub + "@example.com", forUpdate: false) }
            #expect(bySignInName?.sub == sub)
            let code = try await store.read { try await $0.code(poolId: pool, userSub: sub, purpose: .signUp) }
            #expect(code?.codeHash == "hash-" + sub)
            let filter = UserFilter(field: .attribute("email"), match: .equals, value: sub + "@example.com", caseInsensitive: true)
            let listed = try await store.read { try await $0.listUsers(poolId: pool, filter: filter, after: nil, limit: 10) }
            #expect(listed.items.map(\.attributes) == [user.attributes])
        }

        // A user added now gets a number of its own, and reads back whole.
        let added = UserRecord(
            poolId: "p1", sub: "sub-3", username: "name-sub-3", usernameKey: "name-sub-3", status: .unconfirmed,
            enabled: true, createdAt: Date(), updatedAt: Date(), password: nil, passwordUpdatedAt: nil,
            attributes: ["email": "three@example.com"])
        try await store.write { transaction in
            try await transaction.insertUser(added)
            try await transaction.addSignInNames(poolId: "p1", sub: "sub-3", names: ["three@example.com"])
        }
        #expect(try await store.read { try await $0.user(poolId: "p1", sub: "sub-3", forUpdate: false) }?.attributes
            == added.attributes)

        try await store.write { try await $0.deleteUser(poolId: "p1", sub: "sub-1") }
        let left = try await backend.read { session in
            var counts: [Int] = []
            for table in ["user_attributes", "sign_in_names", "codes"] {
                counts.append(try await session.execute("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first?.int("n") ?? -1)
            }
            return counts
        }
        #expect(left == [3, 2, 1], "rows of user_attributes, sign_in_names and codes left")
        await backend.shutdown()
    }
}
