@testable import CognateStorage
import CognateCore
import Foundation
import Logging
import Testing

/// The conformance suite on PostgreSQL (a fresh database per case).
@Suite(.enabled(if: !PostgresTestDatabase.skipped, "COGNATE_SKIP_POSTGRES=1"), .serialized)
struct PostgresStoreTests {
    @Test(arguments: StoreConformance.cases)
    func conformance(_ check: StoreConformance.Case) async throws {
        let store = try await SQLStore.open(
            try await PostgresTestDatabase.create(), options: PostgresTestDatabase.options, logger: Logger(label: "test"),
            cachingUsers: true)
        do { try await check.run(store) } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    @Test func concurrentMigrationsRunOnce() async throws {
        let url = try await PostgresTestDatabase.create()
        let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let backend = try await SQLStore.openBackend(url, options: PostgresTestDatabase.options, logger: Logger(label: "test"))
                    do {
                        let result = try await Migrator.migrate(backend)
                        await backend.shutdown()
                        return result
                    } catch {
                        await backend.shutdown()
                        Issue.record("migration failed: \(String(reflecting: error))")
                        throw error
                    }
                }
            }
            return try await group.reduce(into: [[Int]]()) { $0.append($1) }
        }
        #expect(applied.filter { !$0.isEmpty } == [Array(1...Migrator.latestVersion)])
    }

    /// A migration is not cut short by the statement timeout requests have: a node that starts
    /// while another holds the migration lock (a migration rewriting millions of rows) waits
    /// for it, and then migrates.
    @Test func migrationsWaitBeyondTheStatementTimeout() async throws {
        let url = try await PostgresTestDatabase.create()
        let holder = try await SQLStore.openBackend(url, options: PostgresTestDatabase.options, logger: Logger(label: "test"))
        let impatient = DatabaseOptions(poolSize: 2, statementTimeout: 0.5, connectionWaitTimeout: 10)
        let node = try await SQLStore.openBackend(url, options: impatient, logger: Logger(label: "test"))
        // The node starts migrating once the lock is held, and gets it two seconds later.
        let migration = try await holder.withMigrationLock { _ in
            let migration = Task { try await Migrator.migrate(node) }
            try await Task.sleep(for: .seconds(2))
            return migration
        }
        #expect(try await migration.value == Array(1...Migrator.latestVersion))
        // The connection has its timeout back.
        await #expect(throws: (any Error).self) { try await node.read { try await $0.execute("SELECT pg_sleep(1)") } }
        await node.shutdown()
        await holder.shutdown()
    }

    /// In a rolling upgrade, a migration that needs a table another session keeps locked (a
    /// transaction left open) steps back after its lock timeout instead of making every request
    /// for that table queue behind its wait, and applies once the table is free.
    @Test func aMigrationWaitingForALockDoesNotHoldUpRequests() async throws {
        let url = try await PostgresTestDatabase.create()
        let running = try await SQLStore.openBackend(url, options: PostgresTestDatabase.options, logger: Logger(label: "test"))
        try await Migrator.migrate(running, upTo: 23)
        let upgrading = try await SQLStore.openBackend(url, options: PostgresTestDatabase.options, logger: Logger(label: "test"))
        let outcome: Result<Void, any Error>
        do {
            // Migration 24 adds a trigger to user_mfa, which this transaction keeps for 4 s.
            let holding = Task {
                try await running.write { session in
                    try await session.execute("LOCK TABLE user_mfa IN ROW EXCLUSIVE MODE")
                    try await Task.sleep(for: .seconds(4))
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            let migration = Task { try await Migrator.migrate(upgrading, lockTimeout: .milliseconds(200)) }
            try await Task.sleep(for: .milliseconds(500))
            // A request for the same table waits at most for one attempt of the migration.
            let started = ContinuousClock.now
            try await running.write { try await $0.execute("LOCK TABLE user_mfa IN ROW EXCLUSIVE MODE") }
            let waited = started.duration(to: .now)
            #expect(waited < .milliseconds(1_500), "the request waited \(waited)")
            try await holding.value
            #expect(try await migration.value == Array(24...Migrator.latestVersion))
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        await upgrading.shutdown()
        await running.shutdown()
        try outcome.get()
    }

    @Test func userNumbersMigrationKeepsEveryUsersRows() async throws {
        try await UserNumbersTests.migrationKeepsEveryUsersRows(
            try await SQLStore.openBackend(try await PostgresTestDatabase.create(), options: PostgresTestDatabase.options,
                                           logger: Logger(label: "test")))
    }

    /// Two nodes on one database hand out users' numbers from blocks of the users' sequence,
    /// which steps by the block's size: users signing up on both at once never share one.
    @Test func twoNodesNeverShareAUserNumber() async throws {
        let url = try await PostgresTestDatabase.create()
        let nodes = [
            try await SQLStore.open(url, options: PostgresTestDatabase.options, logger: Logger(label: "test")),
            try await SQLStore.open(url, options: PostgresTestDatabase.options, logger: Logger(label: "test")),
        ]
        let step = try await nodes[0].backend.read { session in
            try await session.execute(
                "SELECT increment_by FROM pg_sequences WHERE sequencename = 'users_number_seq'").first?.int64("increment_by")
        }
        #expect(step == UserNumbers.PostgresBlocks.size)
        try await nodes[0].write { try await $0.insertPool(StoreConformance.pool("p1")) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, node) in nodes.enumerated() {
                for user in 0..<100 {
                    group.addTask {
                        let sub = "node\(index)-user\(user)"
                        try await node.write { try await $0.insertUser(UserRecord(
                            poolId: "p1", sub: sub, username: sub, usernameKey: sub, status: .confirmed,
                            enabled: true, createdAt: Date(), updatedAt: Date(), password: nil, passwordUpdatedAt: nil,
                            attributes: ["email": sub + "@example.com"])) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let counts = try await nodes[1].backend.read { session in
            try await session.execute(
                "SELECT COUNT(DISTINCT number) AS numbers, (SELECT COUNT(*) FROM user_attributes) AS attributes FROM users")
        }.first
        #expect(try counts?.int("numbers") == 200 && counts?.int("attributes") == 200)
        for node in nodes { await node.close() }
    }

    /// Idle pooled connections are kept open by TCP keep-alive the server sends (no keep-alive
    /// query): every connection asks for it at start-up, along with the statement timeout.
    @Test func connectionsAskForTCPKeepAlive() async throws {
        let backend = try await SQLStore.openBackend(
            try await PostgresTestDatabase.create(), options: PostgresTestDatabase.options, logger: Logger(label: "test"))
        let settings = try await backend.read { session in
            try await session.execute(
                "SELECT current_setting('tcp_keepalives_idle') AS idle, current_setting('tcp_keepalives_interval') AS every, "
                    + "current_setting('tcp_keepalives_count') AS count")
        }
        await backend.shutdown()
        #expect(try settings.first?.string("idle") == "60")
        #expect(try settings.first?.string("every") == "10")
        #expect(try settings.first?.string("count") == "6")
    }

    /// A connection that dies inside a write (the database restarted, an operator terminated
    /// its backend) fails the write, and the statements after it (the roll-back among them) fail
    /// at once: they do not wait forever for an answer, nor keep the connection from the pool.
    @Test func aConnectionLostInsideAWriteFailsItAndThePoolGoesOn() async throws {
        let backend = try await SQLStore.openBackend(
            try await PostgresTestDatabase.create(), options: PostgresTestDatabase.options, logger: Logger(label: "test"))
        for _ in 0..<PostgresTestDatabase.options.poolSize + 1 {   // every connection, and one reopened
            await #expect(throws: (any Error).self) {
                try await backend.write { session in
                    try await session.execute("SELECT 1 AS one")   // begins the transaction
                    _ = try? await session.execute("SELECT pg_terminate_backend(pg_backend_pid())")
                    return try await session.execute("SELECT 1 AS one")
                }
            }
        }
        #expect(try await backend.read { try await $0.execute("SELECT 2 AS two") }.first?.int("two") == 2)
        await backend.shutdown()
    }

    /// A statement whose preparation failed on a connection (its wait for a lock cut short by
    /// the statement timeout) runs on that connection once the lock is free. PostgresNIO keeps
    /// a failed preparation and answers every later execution of the name with it: one lock
    /// wait made a user's updates fail on that connection until the node restarted.
    @Test func aStatementThatTimedOutPreparingRunsAgainOnItsConnection() async throws {
        let url = try await PostgresTestDatabase.create()
        let holder = try await SQLStore.openBackend(url, options: PostgresTestDatabase.options, logger: Logger(label: "test"))
        let impatient = DatabaseOptions(poolSize: 1, statementTimeout: 1, connectionWaitTimeout: 30)
        let node = try await SQLStore.openBackend(url, options: impatient, logger: Logger(label: "test"))
        try await holder.write { try await $0.execute("CREATE TABLE t (x INTEGER)") }
        let locked = AsyncStream.makeStream(of: Void.self), released = AsyncStream.makeStream(of: Void.self)
        let holding = Task {
            try await holder.write { session in
                try await session.execute("LOCK TABLE t IN ACCESS EXCLUSIVE MODE")
                locked.continuation.yield()
                for await _ in released.stream { break }
            }
        }
        for await _ in locked.stream { break }
        let count: SQLStatement = "SELECT count(*) AS n FROM t"
        await #expect(throws: (any Error).self) { try await node.read { try await $0.execute(count) } }
        released.continuation.yield()
        try await holding.value
        #expect(try await node.read { try await $0.execute(count) }.first?.int("n") == 0)
        await node.shutdown()
        await holder.shutdown()
    }

    @Test func unreachableDatabaseIsAClearError() async throws {
        do {
            _ = try await SQLStore.open("postgres://nobody@127.0.0.1:1/none", logger: Logger(label: "test"))
            Issue.record("opened an unreachable database")
        } catch let error as StorageError {
            #expect(error.description.contains("Cannot connect to PostgreSQL"))
        }
    }

    /// The commands that work on a server's database do not give an empty database (the wrong
    /// name in the URL) Cognate's tables; `serve` and `migrate` do.
    @Test func withoutCreatingAnEmptyDatabaseIsRefusedAndLeftEmpty() async throws {
        let url = try await PostgresTestDatabase.create()
        let refused = await #expect(throws: StorageError.self) {
            try await SQLStore.open(url, options: PostgresTestDatabase.options, logger: Logger(label: "test"), creating: false)
        }
        #expect(refused.map { "\($0)" }?.hasSuffix("holds no Cognate tables.") == true)
        let backend = try await SQLStore.openBackend(url, options: PostgresTestDatabase.options, logger: Logger(label: "test"))
        #expect(try await !Migrator.hasSchema(backend))
        try await Migrator.migrate(backend)
        #expect(try await Migrator.hasSchema(backend))
        await backend.shutdown()
        let store = try await SQLStore.open(url, options: PostgresTestDatabase.options, logger: Logger(label: "test"), creating: false)
        await store.close()
    }
}
