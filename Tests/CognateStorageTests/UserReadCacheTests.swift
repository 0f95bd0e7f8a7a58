@testable import CognateStorage
import CognateCore
import Foundation
import Logging
import Testing

/// The cache's own rules, without a database.
struct UserReadCacheTests {
    let t0 = ContinuousClock.now
    let user = StoreConformance.user("a")
    var value: UserReadCache.Value { (user, TokenFamilyStanding(revokedAt: nil, deviceKey: nil)) }

    func cached(_ cache: UserReadCache, _ jti: String = "j1", at now: ContinuousClock.Instant? = nil) -> UserReadCache.Value? {
        cache.value(poolId: "p1", sub: "sub-a", originJti: jti, now: now ?? t0)
    }

    @Test func keepsNothingUntilNoticesArrive() {
        let cache = UserReadCache()
        #expect(cache.ticket() == nil)
        cache.confirm(upTo: t0)
        cache.keep(value, for: "j1", ticket: cache.ticket()!, now: t0)
        #expect(cached(cache)?.user == user)
        cache.stopListening()
        #expect(cached(cache) == nil && cache.count == 0 && cache.ticket() == nil)
    }

    @Test func aReadThatRacedAChangeIsNotKept() {
        let cache = UserReadCache()
        cache.confirm(upTo: t0)
        for change in [UserChanges.Changed.everyone, .some(users: [.init(poolId: "p9", sub: "other")], families: []),
                       .some(users: [], families: ["unknown"])] {
            let ticket = cache.ticket()!
            cache.invalidate(change)
            cache.keep(value, for: "j1", ticket: ticket, now: t0)
            #expect(cached(cache) == nil, "\(change)")
        }
        // A write that changed nothing cached does not spoil the read.
        let ticket = cache.ticket()!
        cache.invalidate(.nothing)
        cache.keep(value, for: "j1", ticket: ticket, now: t0)
        #expect(cached(cache) != nil)
    }

    @Test func changesDropTheirUsersEntries() {
        let cache = UserReadCache()
        cache.confirm(upTo: t0)
        func fill() {
            for jti in ["j1", "j2"] { cache.keep(value, for: jti, ticket: cache.ticket()!, now: t0) }
        }
        fill()
        #expect(cache.count == 2)
        cache.invalidate(.some(users: [], families: ["j2"]))   // a family: its user's entries go
        #expect(cached(cache, "j1") == nil && cached(cache, "j2") == nil && cache.count == 0)
        fill()
        cache.noticed("p1 sub-other")
        #expect(cached(cache, "j1") != nil)
        cache.noticed("p1 sub-a")
        #expect(cached(cache, "j1") == nil && cache.count == 0)
        fill()
        cache.noticed("*")
        #expect(cache.count == 0)
    }

    @Test func entriesAgeOut() {
        let cache = UserReadCache(lifetime: .seconds(5), lease: .seconds(60))
        cache.confirm(upTo: t0)
        cache.keep(value, for: "j1", ticket: cache.ticket()!, now: t0)
        #expect(cached(cache, at: t0 + .seconds(4)) != nil)
        #expect(cached(cache, at: t0 + .seconds(5)) == nil)
    }

    func keep(_ names: [String], in cache: UserReadCache, at now: ContinuousClock.Instant, ticket: UserReadCache.Ticket? = nil) {
        for name in names {
            let user = StoreConformance.user(name)
            cache.keep((user, TokenFamilyStanding(revokedAt: nil, deviceKey: nil)), for: "jti-\(name)", ticket: ticket ?? cache.ticket()!, now: now)
        }
    }

    func served(_ names: [String], by cache: UserReadCache, at now: ContinuousClock.Instant) -> [String] {
        names.filter { cache.value(poolId: "p1", sub: "sub-\($0)", originJti: "jti-\($0)", now: now) != nil }
    }

    /// What one user of a two-character name with one family takes by the cache's estimate.
    func bytesOfOneUser() -> Int {
        let cache = UserReadCache()
        cache.confirm(upTo: t0)
        keep(["xx"], in: cache, at: t0)
        return cache.bytes
    }

    @Test func aFullCacheDropsWhatAgedOutFirst() {
        let cache = UserReadCache(lifetime: .seconds(5), lease: .seconds(60), capacity: 4 * bytesOfOneUser())
        cache.confirm(upTo: t0)
        keep(["aa", "bb"], in: cache, at: t0)
        let later = t0 + .seconds(6)
        keep(["cc", "dd"], in: cache, at: later)
        keep(["ee"], in: cache, at: later)   // full: aa and bb are past their lifetime
        #expect(served(["cc", "dd", "ee"], by: cache, at: later) == ["cc", "dd", "ee"] && cache.count == 3)
    }

    @Test func aFullCacheFreesAQuarterAndSpoilsNoReadInFlight() {
        let cache = UserReadCache(lifetime: .seconds(60), lease: .seconds(60), capacity: 8 * bytesOfOneUser())
        cache.confirm(upTo: t0)
        let names = (1...8).map { "u\($0)" }
        keep(names, in: cache, at: t0)
        let readBeforeEviction = cache.ticket()!
        keep(["nn"], in: cache, at: t0)
        #expect(cache.count == 7 && served(names, by: cache, at: t0).count == 6 && served(["nn"], by: cache, at: t0) == ["nn"])
        keep(["ll"], in: cache, at: t0, ticket: readBeforeEviction)
        #expect(served(["ll"], by: cache, at: t0) == ["ll"] && cache.count == 8)
    }

    @Test func aUserIsKeptOnceHoweverManyOfTheirFamiliesAre() {
        let cache = UserReadCache()
        cache.confirm(upTo: t0)
        let large = StoreConformance.user("a", attributes: Dictionary(uniqueKeysWithValues: (0..<50).map {
            ("custom:field\($0)", String(repeating: "x", count: 2048))
        }))
        cache.keep((large, nil), for: "j0", ticket: cache.ticket()!, now: t0)
        let one = cache.bytes
        #expect(one > 50 * 2048)
        for jti in (1..<100).map({ "j\($0)" }) { cache.keep((large, nil), for: jti, ticket: cache.ticket()!, now: t0) }
        #expect(cache.count == 100 && cache.bytes < one + 100 * 256)
        #expect(cached(cache, "j0")?.user == large && cached(cache, "j99")?.user == large)
    }

    @Test func mfaSettingsAreKeptAndDroppedWithTheirUser() {
        let cache = UserReadCache()
        cache.confirm(upTo: t0)
        #expect(cache.mfa(poolId: "p1", sub: "sub-a", now: t0) == nil)
        cache.keepMfa(nil, poolId: "p1", sub: "sub-a", ticket: cache.ticket()!, now: t0)   // none: kept as none
        #expect(cache.mfa(poolId: "p1", sub: "sub-a", now: t0) == .some(nil) && cache.count == 1)
        let record = UserMfaRecord(poolId: "p1", userSub: "sub-a", smsEnabled: true, updatedAt: StoreConformance.t0)
        cache.keepMfa(record, poolId: "p1", sub: "sub-a", ticket: cache.ticket()!, now: t0)
        cache.keep(value, for: "j1", ticket: cache.ticket()!, now: t0)
        #expect(cache.mfa(poolId: "p1", sub: "sub-a", now: t0) == .some(record) && cache.count == 2)
        let ticket = cache.ticket()!
        cache.noticed("p1 sub-a")
        #expect(cache.mfa(poolId: "p1", sub: "sub-a", now: t0) == nil && cached(cache) == nil && cache.count == 0)
        cache.keepMfa(record, poolId: "p1", sub: "sub-a", ticket: ticket, now: t0)   // read before the change
        #expect(cache.mfa(poolId: "p1", sub: "sub-a", now: t0) == nil)
    }

    @Test func servesOnlyWhileHeartbeatsComeBack() {
        let cache = UserReadCache(lifetime: .seconds(60), lease: .seconds(3))
        cache.confirm(upTo: t0)
        cache.keep(value, for: "j1", ticket: cache.ticket()!, now: t0)
        #expect(cached(cache, at: t0 + .seconds(2)) != nil)
        #expect(cached(cache, at: t0 + .seconds(3)) == nil, "no heartbeat came back")
        cache.confirm(upTo: t0 + .seconds(2))
        #expect(cached(cache, at: t0 + .seconds(4)) != nil)
        cache.confirm(upTo: t0 + .seconds(1))   // an earlier heartbeat arriving late vouches for less
        #expect(cache.unconfirmed(at: t0 + .seconds(4)) == .seconds(2))
        #expect(cached(cache, at: t0 + .seconds(5)) == nil)
        cache.stopListening()
        #expect(cache.unconfirmed(at: t0 + .seconds(6)) == nil && cache.ticket() == nil)
        cache.confirm(upTo: t0 + .seconds(6))   // a new connection's first heartbeat back turns it on, empty
        #expect(cache.unconfirmed(at: t0 + .seconds(6)) == .zero && cache.ticket() != nil && cache.count == 0)
    }

    @Test func aListenerRecognizesItsOwnHeartbeats() {
        let mine = Heartbeat(), theirs = Heartbeat()
        let sent = mine.start + .milliseconds(1_500)
        #expect(mine.sentAt(mine.payload(sentAt: sent)) == sent)
        #expect(mine.sentAt(theirs.payload(sentAt: sent)) == nil && Heartbeat.isHeartbeat(theirs.payload(sentAt: sent)))
        #expect(mine.sentAt("p1 sub-a") == nil && !Heartbeat.isHeartbeat("p1 sub-a"))
    }

    @Test func statementsThatChangeCachedTablesCountAsChangingEveryone() {
        #expect(UserChanges.changesCachedUsers("UPDATE users SET enabled = \(bind: 0) WHERE sub = \(bind: "x")"))
        #expect(UserChanges.changesCachedUsers(
            "DELETE FROM \(unsafeRaw: "token_families") WHERE ctid IN (SELECT 1)"))
        #expect(UserChanges.changesCachedUsers("DELETE FROM user_pools WHERE id = \(bind: "p1")"))
        #expect(!UserChanges.changesCachedUsers("INSERT INTO users (sub) VALUES (\(bind: "UPDATE users SET"))"))
        #expect(!UserChanges.changesCachedUsers("SELECT * FROM users u WHERE u.sub = \(bind: "x")"))
        #expect(UserChanges.changesCachedUsers("INSERT INTO user_mfa (pool_id) VALUES (\(bind: "p1"))"))
        #expect(UserChanges.changesCachedUsers(
            "WITH gone AS (SELECT 1) DELETE FROM app_clients WHERE client_id = \(bind: "c")"))
        #expect(!UserChanges.changesCachedUsers("UPDATE user_pools SET name = \(bind: "n")"))
        #expect(!UserChanges.changesCachedUsers("SELECT 1 FROM x WHERE y = 'UPDATE users'"))
        #expect(!UserChanges.changesCachedUsers(""))
        let changes = UserChanges()
        changes.record(.user(poolId: "p1", sub: "a"))
        changes.record(.family(originJti: "j"))
        changes.record(.nothingCached)
        #expect(changes.collected == .some(users: [.init(poolId: "p1", sub: "a")], families: ["j"]))
        changes.note("UPDATE token_families SET revoked_at = 1")
        #expect(changes.collected == .everyone)
    }
}

/// Two nodes on one PostgreSQL database: what one changes, the other's cache drops.
@Suite(.enabled(if: !PostgresTestDatabase.skipped, "COGNATE_SKIP_POSTGRES=1"), .serialized)
struct PostgresUserCacheTests {
    static let t0 = StoreConformance.t0

    static func family(_ jti: String, device: String? = nil) -> TokenFamilyRecord {
        TokenFamilyRecord(originJti: jti, poolId: "p1", clientId: "c1", userSub: "sub-a", refreshTokenHash: "hash-\(jti)",
                          authTime: t0, createdAt: t0, expiresAt: t0 + 3600, deviceKey: device)
    }

    /// Runs `body` with two nodes, each listening, over a database with user `a` and families
    /// j1 and j2 (of device d1).
    static func withNodes(_ body: (SQLStore, SQLStore) async throws -> Void) async throws {
        let url = try await PostgresTestDatabase.create()
        let a = try await SQLStore.open(url, options: PostgresTestDatabase.options, logger: Logger(label: "test"), cachingUsers: true)
        let b = try await SQLStore.open(url, options: PostgresTestDatabase.options, logger: Logger(label: "test"), cachingUsers: true)
        let outcome: Result<Void, any Error>
        do {
            try await seedUserWithFamilies(a)
            for node in [a, b] { try await eventually("the node listens") { node.userCache?.isListening == true } }
            try await body(a, b)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        await a.close()
        await b.close()
        try outcome.get()
    }

    /// User `a` (an email) with token families j1 and j2 (of device d1).
    static func seedUserWithFamilies(_ store: SQLStore) async throws {
        try await StoreConformance.seed(store, users: [StoreConformance.user("a", attributes: ["email": "a@x.io"])])
        try await store.write { tx in
            try await tx.insertTokenFamily(family("j1"))
            try await tx.insertTokenFamily(family("j2", device: "d1"))
        }
    }

    /// Waits up to `limit` for `condition` (a notice crosses between nodes in milliseconds).
    static func eventually(_ what: String, within limit: Duration = .seconds(10), _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while try await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("not within \(limit): \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    static func answer(_ node: SQLStore, _ jti: String = "j1") async throws -> UserReadCache.Value? {
        try await node.snapshots.user(poolId: "p1", sub: "sub-a", withTokenFamily: jti)
    }

    @Test func anotherNodesChangesReachTheCache() async throws {
        try await Self.withNodes { a, b in
            #expect(try await Self.answer(a)?.family?.revokedAt == nil)
            #expect(a.userCache?.count == 1)
            // A revocation on b: a's answer follows once the notice arrives.
            try await b.write { try await $0.revokeTokenFamily(originJti: "j1", at: Self.t0 + 1) }
            try await Self.eventually("the revocation reaches a") { try await Self.answer(a)?.family?.revokedAt == Self.t0 + 1 }
            // A change of attributes, a disabled user, a device's families revoked, a deletion.
            #expect(try await Self.answer(a, "j2")?.user.attributes["email"] == "a@x.io")
            var changed = try #require(try await b.read { try await $0.user(poolId: "p1", sub: "sub-a", forUpdate: false) })
            changed.attributes["email"] = "new@x.io"
            changed.enabled = false
            try await b.write { [changed] in try await $0.updateUser(changed) }
            try await Self.eventually("the update reaches a") {
                let user = try await Self.answer(a, "j2")?.user
                return user?.attributes["email"] == "new@x.io" && user?.enabled == false
            }
            try await b.write { try await $0.revokeTokenFamilies(poolId: "p1", deviceKey: "d1", at: Self.t0 + 2) }
            try await Self.eventually("the device's revocation reaches a") {
                try await Self.answer(a, "j2")?.family?.revokedAt == Self.t0 + 2
            }
            try await b.write { try await $0.deleteUser(poolId: "p1", sub: "sub-a") }
            try await Self.eventually("the deletion reaches a") { try await Self.answer(a, "j2") == nil }
        }
    }

    @Test func aNodeReadsItsOwnWritesAtOnce() async throws {
        try await Self.withNodes { a, b in
            for round in 1...20 {
                #expect(try await Self.answer(a)?.family?.revokedAt == nil)
                #expect(try await Self.answer(a)?.user.attributes["round"] == (round == 1 ? nil : String(round - 1)))
                var user = try #require(try await a.read { try await $0.user(poolId: "p1", sub: "sub-a", forUpdate: false) })
                user.attributes["round"] = String(round)
                try await a.write { [user] in try await $0.updateUser(user) }
                #expect(try await Self.answer(a)?.user.attributes["round"] == String(round), "round \(round)")
            }
            try await a.write { try await $0.revokeTokenFamilies(poolId: "p1", userSub: "sub-a", at: Self.t0 + 3) }
            #expect(try await Self.answer(a)?.family?.revokedAt == Self.t0 + 3)
            // A statement no repository method names (the `cognate` tool's, a future one's): everyone.
            #expect(try await Self.answer(a, "j2")?.user.enabled == true)
            try await a.write { tx in
                try await (tx as! SQLTransaction).run("UPDATE users SET enabled = 0 WHERE pool_id = \(bind: "p1")")
            }
            #expect(try await Self.answer(a, "j2")?.user.enabled == false)
            // A pool's deletion, on the other node: "*", everyone.
            #expect(try await Self.answer(b, "j2") != nil)
            try await a.write { try await $0.deletePool(id: "p1") }
            try await Self.eventually("the pool's deletion reaches b") { try await Self.answer(b, "j2") == nil }
        }
    }

    /// A store closes whatever its listener is doing: connecting, listening, sending its first
    /// heartbeat. (A heartbeat written just after its connection closed was never answered, and
    /// `close()` waited for it forever: the command-line tool hung about once in a few hundred
    /// runs on a busy machine.) The stores close at staggered moments of their listeners' start.
    @Test func aStoreClosesWhileItsListenerStarts() async throws {
        let url = try await PostgresTestDatabase.create()
        for round in 0..<40 {
            let store = try await SQLStore.open(url, options: PostgresTestDatabase.options, logger: Logger(label: "test"),
                                                migrate: round == 0, cachingUsers: true)
            try await Task.sleep(for: .microseconds(round * 500))
            await store.close()
        }
    }

    /// When the listening connection fails, the cache serves nothing until a new one listens;
    /// what it held before is gone.
    @Test func aLostListenerTurnsTheCacheOff() async throws {
        try await Self.withNodes { a, b in
            _ = try await Self.answer(a)
            #expect(a.userCache?.count == 1)
            let terminated = try await b.backend.read { session in
                try await session.execute("""
                    SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity \
                    WHERE datname = current_database() AND application_name = \(bind: PostgresUserChangeListener.applicationName)
                    """)
            }.first?.int("n")
            #expect(terminated == 2)
            try await Self.eventually("a's listener is lost") { a.userCache?.isListening == false }
            #expect(a.userCache?.count == 0)
            try await b.write { try await $0.revokeTokenFamily(originJti: "j1", at: Self.t0 + 4) }
            #expect(try await Self.answer(a)?.family?.revokedAt == Self.t0 + 4)
            try await Self.eventually("a listens again") { a.userCache?.isListening == true }
            #expect(try await Self.answer(a)?.family?.revokedAt == Self.t0 + 4)
            try await b.write { try await $0.deleteUser(poolId: "p1", sub: "sub-a") }
            try await Self.eventually("the deletion reaches a") { try await Self.answer(a) == nil }
        }
    }

    /// When the listening connections fall silent without failing (their backends stopped, as
    /// a peer that vanished without a word), the cache stops serving once no heartbeat came back
    /// for its lease, and the listener gives the connection up and opens a new one.
    @Test(.enabled(if: PostgresTestDatabase.isLocal, "the database's processes are on this machine"))
    func aSilentListenerStopsServingWithinItsLease() async throws {
        try await Self.withNodes { a, b in
            let lease = try #require(a.userCache?.lease)
            #expect(try await Self.answer(a)?.family?.revokedAt == nil)
            let backends = try await b.backend.read { session in
                try await session.execute("""
                    SELECT pid FROM pg_stat_activity \
                    WHERE datname = current_database() AND application_name = \(bind: PostgresUserChangeListener.applicationName)
                    """)
            }.map { try $0.int("pid") }
            #expect(backends.count == 2)
            for pid in backends {
                let command = try String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
                try #require(command.hasPrefix("postgres"), "process \(pid) is \(command)")
            }
            func signal(_ signal: Int32) { for pid in backends { kill(pid_t(pid), signal) } }
            signal(SIGSTOP)
            defer { signal(SIGCONT) }
            let stopped = ContinuousClock.now
            try await b.write { try await $0.revokeTokenFamily(originJti: "j1", at: Self.t0 + 5) }
            try await Self.eventually("a stops serving what it held") {
                try await Self.answer(a)?.family?.revokedAt == Self.t0 + 5
            }
            let served = stopped.duration(to: .now)
            #expect(served < lease + .seconds(2), "served for \(served)")
            try await Self.eventually("a gives the silent connection up", within: PostgresUserChangeListener.silenceLimit + .seconds(10)) {
                a.userCache?.isListening == false
            }
            signal(SIGCONT)
            try await Self.eventually("a listens again") { a.userCache?.isListening == true }
            #expect(try await Self.answer(a)?.family?.revokedAt == Self.t0 + 5)
            try await b.write { try await $0.deleteUser(poolId: "p1", sub: "sub-a") }
            try await Self.eventually("the deletion reaches a") { try await Self.answer(a) == nil }
        }
    }

    /// Waits until every notice committed before `instant` has reached `node` (its own
    /// heartbeat sent after it came back): after that, a notice not applied was never sent.
    static func noticesReached(_ node: SQLStore, upTo instant: ContinuousClock.Instant) async throws {
        try await eventually("a heartbeat sent after the write comes back") {
            (node.userCache?.unconfirmed(at: instant)).map { $0 < .zero } ?? false
        }
    }

    static func mfa(_ node: SQLStore) async throws -> UserMfaRecord? {
        try await node.snapshots.mfa(poolId: "p1", sub: "sub-a")
    }

    @Test func anotherNodesMfaChangesReachTheCache() async throws {
        try await Self.withNodes { a, b in
            #expect(try await Self.mfa(a) == nil)   // none, and kept as none
            #expect(a.userCache?.count == 1)
            var record = UserMfaRecord(poolId: "p1", userSub: "sub-a", pendingTotpSecret: "PENDING", updatedAt: Self.t0)
            try await b.write { [record] in try await $0.saveUserMfa(record) }   // the first save: an insert
            try await Self.eventually("the new settings reach a") { try await Self.mfa(a)?.pendingTotpSecret == "PENDING" }
            record.totpSecret = "SECRET"
            record.totpEnabled = true
            record.preferred = "SOFTWARE_TOKEN_MFA"
            try await b.write { [record] in try await $0.saveUserMfa(record) }
            try await Self.eventually("the change reaches a") { try await Self.mfa(a)?.preferred == "SOFTWARE_TOKEN_MFA" }
            // A code's use changes nothing GetUser shows, and sends no notice.
            #expect(try await b.write { try await $0.useTotpStep(poolId: "p1", sub: "sub-a", step: 7) })
            try await Self.noticesReached(a, upTo: .now)
            #expect(try await Self.mfa(a)?.lastTotpStep == nil, "served from the cache")
            #expect(try await b.read { try await $0.userMfa(poolId: "p1", sub: "sub-a") }?.lastTotpStep == 7)
            // On the node that writes, at once.
            record.smsEnabled = true
            try await a.write { [record] in try await $0.saveUserMfa(record) }
            #expect(try await Self.mfa(a)?.smsEnabled == true)
            try await b.write { try await $0.deleteUser(poolId: "p1", sub: "sub-a") }
            try await Self.eventually("the deletion reaches a") { try await Self.mfa(a) == nil }
        }
    }
}
