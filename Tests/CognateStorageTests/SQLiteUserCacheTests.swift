@testable import CognateStorage
import CognateCore
import Foundation
import Logging
import Testing

/// A server's SQLite store keeps a user cache: what another process commits to the same file
/// (the `cognate` tool, a second server) drops it within the watcher's interval; what the
/// server writes itself, at once.
@Suite(.serialized)
struct SQLiteUserCacheTests {
    typealias Nodes = PostgresUserCacheTests
    static let t0 = StoreConformance.t0
    /// Well within the cache's 3 s lease: a watcher that stopped reading (the cache falls back
    /// to the database only after the lease) cannot pass for one that saw the change.
    static let bound: Duration = .seconds(1)

    /// Waits until the watcher confirmed the cache after `instant` (a read of the data version
    /// that started later).
    static func confirmed(_ store: SQLStore, after instant: ContinuousClock.Instant) async throws {
        try await Nodes.eventually("a read of the data version after the write", within: bound) {
            let now = ContinuousClock.now
            return store.userCache?.unconfirmed(at: now).map { $0 < instant.duration(to: now) } ?? false
        }
    }

    /// Runs `body` with a server's store (`cached`, keeping a user cache) and another process's
    /// (`other`, as the `cognate` tool opens it) on one SQLite file holding user `a` and
    /// families j1 and j2 (of device d1).
    static func withStores(_ body: (_ cached: SQLStore, _ other: SQLStore) async throws -> Void) async throws {
        let path = DatabaseLocationTests.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let cached = try await SQLStore.open(path, logger: Logger(label: "test"), cachingUsers: true)
        let other = try await SQLStore.open(path, logger: Logger(label: "test"), creating: false)
        let outcome: Result<Void, any Error>
        do {
            #expect(other.userCache == nil)
            try await Nodes.seedUserWithFamilies(cached)
            try await Nodes.eventually("the cache turns on") { cached.userCache?.isListening == true }
            try await body(cached, other)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        await cached.close()
        await other.close()
        try outcome.get()
    }

    @Test func anotherProcessesChangesReachTheCache() async throws {
        try await Self.withStores { cached, other in
            #expect(try await Nodes.answer(cached)?.family?.revokedAt == nil)
            #expect(cached.userCache?.count == 1)
            try await other.write { try await $0.revokeTokenFamily(originJti: "j1", at: Self.t0 + 1) }
            try await Nodes.eventually("the revocation reaches the cache", within: Self.bound) {
                try await Nodes.answer(cached)?.family?.revokedAt == Self.t0 + 1
            }
            #expect(try await Nodes.answer(cached, "j2")?.user.attributes["email"] == "a@x.io")
            var changed = try #require(try await other.read { try await $0.user(poolId: "p1", sub: "sub-a", forUpdate: false) })
            changed.attributes["email"] = "new@x.io"
            changed.enabled = false
            try await other.write { [changed] in try await $0.updateUser(changed) }
            try await Nodes.eventually("the update reaches the cache", within: Self.bound) {
                let user = try await Nodes.answer(cached, "j2")?.user
                return user?.attributes["email"] == "new@x.io" && user?.enabled == false
            }
            try await other.write { try await $0.deleteUser(poolId: "p1", sub: "sub-a") }
            try await Nodes.eventually("the deletion reaches the cache", within: Self.bound) {
                try await Nodes.answer(cached, "j2") == nil
            }
            #expect(cached.userCache?.isListening == true)
        }
    }

    @Test func theServerReadsItsOwnWritesAtOnce() async throws {
        try await Self.withStores { cached, _ in
            for round in 1...20 {
                #expect(try await Nodes.answer(cached)?.user.attributes["round"] == (round == 1 ? nil : String(round - 1)))
                #expect(cached.userCache?.count == 1)
                var user = try #require(try await cached.read { try await $0.user(poolId: "p1", sub: "sub-a", forUpdate: false) })
                user.attributes["round"] = String(round)
                try await cached.write { [user] in try await $0.updateUser(user) }
                #expect(try await Nodes.answer(cached)?.user.attributes["round"] == String(round), "round \(round)")
            }
            try await cached.write { try await $0.revokeTokenFamilies(poolId: "p1", userSub: "sub-a", at: Self.t0 + 3) }
            #expect(try await Nodes.answer(cached)?.family?.revokedAt == Self.t0 + 3)
            #expect(try await Nodes.answer(cached, "j2")?.user.enabled == true)
            try await cached.write { tx in
                try await (tx as! SQLTransaction).run("UPDATE users SET enabled = 0 WHERE pool_id = \(bind: "p1")")
            }
            #expect(try await Nodes.answer(cached, "j2")?.user.enabled == false)
        }
    }

    /// The server's own writes do not count as another process's: a cache warmed after them
    /// stays warm across the watcher's reads.
    @Test func ownWritesLeaveOtherUsersCached() async throws {
        try await Self.withStores { cached, _ in
            try await cached.write { try await $0.insertUser(StoreConformance.user("b")) }
            _ = try await Nodes.answer(cached)
            #expect(cached.userCache?.count == 1)
            try await cached.write { try await $0.revokeTokenFamily(originJti: "j-of-nobody", at: Self.t0) }
            try await Self.confirmed(cached, after: .now)
            #expect(cached.userCache?.count == 1)
        }
    }

    @Test func closingTurnsTheCacheOff() async throws {
        let path = DatabaseLocationTests.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try await SQLStore.open(path, logger: Logger(label: "test"), cachingUsers: true)
        try await Nodes.eventually("the cache turns on") { store.userCache?.isListening == true }
        await store.close()
        #expect(store.userCache?.isListening == false)
    }

    /// A writer's connection left inside a transaction (its COMMIT and ROLLBACK failed) cannot
    /// see other processes' commits: the cache turns off until it is out of it.
    @Test func aWriterStuckInATransactionTurnsTheCacheOff() async throws {
        try await Self.withStores { cached, _ in
            _ = try await Nodes.answer(cached)
            #expect(cached.userCache?.count == 1)
            let backend = try #require(cached.backend as? SQLiteBackend)
            try await backend.writer.exclusive { try await $0.execute("BEGIN") }
            try await Nodes.eventually("the cache turns off", within: Self.bound) { cached.userCache?.isListening == false }
            #expect(cached.userCache?.count == 0)
            try await backend.writer.exclusive { try await $0.execute("COMMIT") }
            try await Nodes.eventually("the cache turns on", within: Self.bound) { cached.userCache?.isListening == true }
        }
    }
}
