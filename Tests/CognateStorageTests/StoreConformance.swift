import CognateCore
import CognateIdentityProtocol
import CognateProtocol
import CognateStorage
import Foundation
import Testing

/// One conformance suite for every storage backend (dex's pattern): each backend's test file
/// runs `StoreConformance.cases` against a fresh store of its kind.
enum StoreConformance {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let run: @Sendable (SQLStore) async throws -> Void
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "pools and clients round-trip and paginate", run: poolsAndClients),
        Case(name: "users with attributes, unique usernames", run: users),
        Case(name: "sign-in names are unique per pool", run: signInNames),
        Case(name: "list users with filters and pages", run: listUsers),
        Case(name: "a value with the NUL character is refused, and nothing written", run: unstorableText),
        Case(name: "codes replace, count failures, delete", run: codes),
        Case(name: "token families revoke and cascade", run: tokenFamilies),
        Case(name: "deleting a pool deletes what it owns", run: cascadingPoolDelete),
        Case(name: "signing keys, secrets and counters", run: keysSecretsCounters),
        Case(name: "a failing transaction leaves nothing", run: rollback),
        Case(name: "a single-statement write commits its statement and refuses a second", run: singleStatementWrite),
        Case(name: "inserts sent later in a write: same rows, same errors, nothing half done", run: heldInserts),
        Case(name: "parallel sign-ups of one username: one wins", run: parallelUsernames),
        Case(name: "parallel redemptions of one code: one wins", run: parallelCodeRedemption),
        Case(name: "parallel counter increments are all counted", run: parallelCounters),
        Case(name: "parallel refreshes of one family read it consistently", run: parallelRefreshes),
        Case(name: "parallel group changes keep one membership each", run: parallelGroupChanges),
        Case(name: "expired records are swept in batches, live ones stay", run: sweeping),
        Case(name: "MFA records, TOTP steps used once, devices and their token families", run: mfaAndDevices),
        Case(name: "SMS/email MFA flags, PIN policies and device PIN verifiers", run: mfaCodesAndPins),
        Case(name: "passkeys: unique IDs per pool, pages, counters, deletion with the user", run: passkeys),
        Case(name: "user sessions: live families with their activity, settings of pools and clients", run: userSessions),
        Case(name: "domains, resource servers and the scopes of token families", run: oauthRecords),
        Case(name: "sign-in failures count for users and decoy subjects", run: signInFailures),
        Case(name: "a sign-in's failure record and groups, read after the user's lock, are fresh", run: signInStanding),
        Case(name: "a right password's family without the lock: stored only while the user stands as read",
             run: signInWithoutLock),
        Case(name: "SRP's answer without the lock: its session used up once, then the family as above",
             run: signInWithoutLockUsingUpSession),
        Case(name: "queued messages come due, are claimed once, rescheduled and removed", run: messageQueue),
        Case(name: "identity pools, identities and logins: one identity per login, merges, cascades", run: identityPools),
        Case(name: "parallel first links of one login: one wins", run: parallelIdentityLinks),
        Case(name: "CIMD policies and their URLs: pages, upserts, cascades from policy and pool", run: cimdPolicies),
    ]

    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func pool(_ id: String) -> PoolRecord {
        PoolRecord(id: id, name: "pool \(id)", createdAt: t0, updatedAt: t0, settings: UserPoolType(autoVerifiedAttributes: [.email]))
    }

    static func client(_ id: String, pool: String) -> ClientRecord {
        ClientRecord(poolId: pool, clientId: id, name: "c", createdAt: t0, updatedAt: t0, settings: UserPoolClientType(clientSecret: "s"))
    }

    static func user(_ name: String, pool: String = "p1", attributes: [String: String] = [:]) -> UserRecord {
        UserRecord(
            poolId: pool, sub: "sub-\(name)", username: name, usernameKey: name.lowercased(), status: .unconfirmed, enabled: true,
            createdAt: t0, updatedAt: t0, password: StoredPassword(salt: [0, 1, 0xff], verifier: [9, 8, 7]),
            passwordUpdatedAt: t0, attributes: attributes)
    }

    static func seed(_ store: SQLStore, users: [UserRecord] = []) async throws {
        try await store.write { tx in
            try await tx.insertPool(pool("p1"))
            try await tx.insertClient(client("c1", pool: "p1"))
            for user in users { try await tx.insertUser(user) }
        }
    }

    static func expectConflict(_ key: UniqueKey, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("expected a conflict on \(key)")
        } catch let error as StoreError {
            #expect(error == .conflict(key))
        } catch {
            Issue.record("expected a conflict on \(key), got \(error)")
        }
    }

    // MARK: - Cases

    static func poolsAndClients(_ store: SQLStore) async throws {
        try await seed(store)
        await expectConflict(.pool) { try await store.write { try await $0.insertPool(pool("p1")) } }
        for id in ["p2", "p3", "p4"] { try await store.write { try await $0.insertPool(pool(id)) } }
        let loaded = try #require(try await store.read { try await $0.pool(id: "p1") })
        #expect(loaded == pool("p1"))
        let first = try await store.read { try await $0.listPools(after: nil, limit: 3) }
        #expect(first.items.map(\.id) == ["p1", "p2", "p3"])
        let second = try await store.read { try await $0.listPools(after: first.next, limit: 3) }
        #expect(second.items.map(\.id) == ["p4"] && second.next == nil)
        var updated = loaded
        updated.name = "renamed"
        updated.settings.mfaConfiguration = .optional
        try await store.write { [updated] in try await $0.updatePool(updated) }
        #expect(try await store.read { try await $0.pool(id: "p1") } == updated)
        let client = try #require(try await store.read { try await $0.client(id: "c1") })
        #expect(client.secret == "s")
        try await store.write { try await $0.deleteClient(poolId: "p1", clientId: "c1") }
        #expect(try await store.read { try await $0.client(id: "c1") } == nil)
    }

    static func users(_ store: SQLStore) async throws {
        // Attributes come back as a JSON object built by the database: values it must escape.
        let alice = user("Alice", attributes: [
            "email": "a@x.io", "custom:tier": "2", "name": "ユーザー 🙂", "custom:json": #"{"a": [1, "b\\"], "c": null}"#,
            "custom:control": "line 1\nline 2\t\u{1}\u{7f}end", "custom:empty": "", "custom:quote\"name": "\\",
        ])
        try await seed(store, users: [alice])
        #expect(try await store.read { try await $0.user(poolId: "p1", usernameKey: "alice") } == alice)
        #expect(try await store.read { try await $0.user(poolId: "p1", sub: "sub-Alice") } == alice)
        // With and without attributes (on PostgreSQL the user and its attributes are one statement).
        for attributes in [[:], ["email": "twin@x.io"]] {
            await expectConflict(.username) {
                var twin = user("ALICE", attributes: attributes)
                twin.sub = "other"
                try await store.write { [twin] in try await $0.insertUser(twin) }
            }
        }
        #expect(try await store.read { try await $0.user(poolId: "p1", usernameKey: "alice") } == alice)
        await #expect(throws: StoreError.referenceMissing) {
            try await store.write { try await $0.insertUser(user("stray", pool: "nowhere", attributes: ["email": "s@x.io"])) }
        }
        var changed = alice
        changed.status = .confirmed
        changed.enabled = false
        changed.password = nil
        changed.attributes = ["email": "new@x.io", "email_verified": "true"]
        try await store.write { [changed] in try await $0.updateUser(changed) }
        #expect(try await store.read { try await $0.user(poolId: "p1", sub: "sub-Alice") } == changed)
        #expect(try await store.read { try await $0.countUsers(poolId: "p1") } == 1)
        try await store.write { try await $0.deleteUser(poolId: "p1", sub: "sub-Alice") }
        #expect(try await store.read { try await $0.user(poolId: "p1", sub: "sub-Alice") } == nil)
    }

    static func signInNames(_ store: SQLStore) async throws {
        try await seed(store, users: [user("a"), user("b")])
        try await store.write { try await $0.setSignInNames(poolId: "p1", sub: "sub-a", names: ["email:x@y.z", "phone_number:+1555"]) }
        #expect(try await store.read { try await $0.user(poolId: "p1", signInName: "email:x@y.z") }?.username == "a")
        await expectConflict(.signInName) {
            try await store.write { try await $0.setSignInNames(poolId: "p1", sub: "sub-b", names: ["email:x@y.z"]) }
        }
        try await store.write { try await $0.setSignInNames(poolId: "p1", sub: "sub-a", names: ["phone_number:+1555"]) }
        try await store.write { try await $0.setSignInNames(poolId: "p1", sub: "sub-b", names: ["email:x@y.z"]) }
        #expect(try await store.read { try await $0.user(poolId: "p1", signInName: "email:x@y.z") }?.username == "b")
        try await store.write { try await $0.deleteUser(poolId: "p1", sub: "sub-b") }
        #expect(try await store.read { try await $0.user(poolId: "p1", signInName: "email:x@y.z") } == nil)

        // A new user's names are added without reading any; a taken one is still refused.
        try await store.write { try await $0.insertUser(user("c")) }
        try await store.write { try await $0.addSignInNames(poolId: "p1", sub: "sub-c", names: ["email:c@y.z"]) }
        #expect(try await store.read { try await $0.user(poolId: "p1", signInName: "email:c@y.z") }?.username == "c")
        await expectConflict(.signInName) {
            try await store.write { try await $0.addSignInNames(poolId: "p1", sub: "sub-c", names: ["phone_number:+1555"]) }
        }
    }

    static func listUsers(_ store: SQLStore) async throws {
        let people = (0..<7).map { user("user\($0)", attributes: ["email": "User\($0)@Example.com", "given_name": $0 % 2 == 0 ? "Even" : "Odd"]) }
        try await seed(store, users: people)
        let page1 = try await store.read { try await $0.listUsers(poolId: "p1", filter: nil, after: nil, limit: 3) }
        #expect(page1.items.map(\.username) == ["user0", "user1", "user2"])
        #expect(page1.items[0].attributes["email"] == "User0@Example.com")
        let rest = try await store.read { try await $0.listUsers(poolId: "p1", filter: nil, after: page1.next, limit: 10) }
        #expect(rest.items.count == 4 && rest.next == nil)
        let prefix = UserFilter(field: .attribute("email"), match: .prefix, value: "user1@", caseInsensitive: true)
        #expect(try await store.read { try await $0.listUsers(poolId: "p1", filter: prefix, after: nil, limit: 10) }.items.map(\.username) == ["user1"])
        let exact = UserFilter(field: .attribute("given_name"), match: .equals, value: "Even", caseInsensitive: false)
        #expect(try await store.read { try await $0.listUsers(poolId: "p1", filter: exact, after: nil, limit: 10) }.items.count == 4)
        let byName = UserFilter(field: .username(key: "user"), match: .prefix, value: "user", caseInsensitive: false)
        #expect(try await store.read { try await $0.listUsers(poolId: "p1", filter: byName, after: nil, limit: 10) }.items.count == 7)
        // Found through its key, a username still matches only as it is written.
        let one = UserFilter(field: .username(key: "user3"), match: .equals, value: "user3", caseInsensitive: false)
        #expect(try await store.read { try await $0.listUsers(poolId: "p1", filter: one, after: nil, limit: 10) }.items.map(\.username) == ["user3"])
        let otherCase = UserFilter(field: .username(key: "user3"), match: .equals, value: "User3", caseInsensitive: false)
        #expect(try await store.read { try await $0.listUsers(poolId: "p1", filter: otherCase, after: nil, limit: 10) }.items.isEmpty)
        // A prefix is a prefix of the bytes, whatever the database's default collation.
        try await store.write { tx in
            for name in ["Dora", "dorian", "DORIS"] { try await tx.insertUser(user(name)) }
        }
        let mixed = UserFilter(field: .username(key: "dor"), match: .prefix, value: "Dor", caseInsensitive: false)
        #expect(try await store.read { try await $0.listUsers(poolId: "p1", filter: mixed, after: nil, limit: 10) }.items.map(\.username) == ["Dora"])
        let status = UserFilter(field: .status, match: .equals, value: "UNCONFIRMED", caseInsensitive: false)
        #expect(try await store.read { try await $0.listUsers(poolId: "p1", filter: status, after: nil, limit: 10) }.items.count == 10)
    }

    static func unstorableText(_ store: SQLStore) async throws {
        try await seed(store)
        func expectRefused(_ body: () async throws -> Void) async {
            do {
                try await body()
                Issue.record("expected unstorableText")
            } catch {
                #expect(error as? StoreError == .unstorableText)
            }
        }
        // Written (the user, then its attributes in the same write) or looked up, alike.
        await expectRefused { try await store.write { try await $0.insertUser(user("nul", attributes: ["name": "a\u{0}b"])) } }
        #expect(try await store.read { try await $0.user(poolId: "p1", sub: "sub-nul", forUpdate: false) } == nil)
        await expectRefused { _ = try await store.read { try await $0.user(poolId: "p1", usernameKey: "a\u{0}", forUpdate: false) } }
        let filter = UserFilter(field: .attribute("email"), match: .prefix, value: "\u{0}", caseInsensitive: true)
        await expectRefused { _ = try await store.read { try await $0.listUsers(poolId: "p1", filter: filter, after: nil, limit: 10) } }
    }

    static func codes(_ store: SQLStore) async throws {
        try await seed(store, users: [user("a")])
        let code = CodeRecord(poolId: "p1", userSub: "sub-a", purpose: .signUp, codeHash: "h1", deliveredTo: "email", createdAt: t0, expiresAt: t0 + 60)
        try await store.write { try await $0.saveCode(code, keepingFailuresSince: t0 - 3600) }
        #expect(try await store.write { try await $0.recordFailedAttempt(poolId: "p1", userSub: "sub-a", purpose: .signUp) } == 1)
        #expect(try await store.write { try await $0.recordFailedAttempt(poolId: "p1", userSub: "sub-a", purpose: .signUp) } == 2)
        // A replacement within the window keeps the failures counted against the code it replaces…
        var replacement = code
        replacement.codeHash = "h2"
        replacement.createdAt = t0 + 10
        try await store.write { [replacement] in try await $0.saveCode(replacement, keepingFailuresSince: t0 - 3590) }
        replacement.previousCodeHash = "h1"
        replacement.failedAttempts = 2
        #expect(try await store.read { try await $0.code(poolId: "p1", userSub: "sub-a", purpose: .signUp) } == replacement)
        // …and one after it starts from zero.
        var later = replacement
        later.codeHash = "h3"
        later.createdAt = t0 + 3700
        try await store.write { [later] in try await $0.saveCode(later, keepingFailuresSince: t0 + 100) }
        later.previousCodeHash = "h2"
        later.failedAttempts = 0
        #expect(try await store.read { try await $0.code(poolId: "p1", userSub: "sub-a", purpose: .signUp) } == later)
        #expect(try await store.read { try await $0.code(poolId: "p1", userSub: "sub-a", purpose: .verifyAttribute("email")) } == nil)
        #expect(try await store.read { try await $0.code(poolId: "p2", userSub: "sub-a", purpose: .signUp) } == nil)
        try await store.write { try await $0.deleteCode(poolId: "p1", userSub: "sub-a", purpose: .signUp) }
        #expect(try await store.read { try await $0.code(poolId: "p1", userSub: "sub-a", purpose: .signUp) } == nil)
    }

    static func tokenFamilies(_ store: SQLStore) async throws {
        try await seed(store, users: [user("a")])
        @Sendable func family(_ jti: String) -> TokenFamilyRecord {
            TokenFamilyRecord(originJti: jti, poolId: "p1", clientId: "c1", userSub: "sub-a", refreshTokenHash: "hash-\(jti)",
                              authTime: t0, createdAt: t0, expiresAt: t0 + 3600)
        }
        try await store.write { tx in
            try await tx.insertTokenFamily(family("j1"))
            try await tx.insertTokenFamily(family("j2"))
        }
        #expect(try await store.read { try await $0.tokenFamily(refreshTokenHash: "hash-j1") } == family("j1"))
        let withUser = try await store.read { try await $0.tokenFamilyWithUser(refreshTokenHash: "hash-j2") }
        #expect(withUser?.family == family("j2") && withUser?.user?.sub == "sub-a" && withUser?.groups == [])
        #expect(withUser?.user == (try await store.read { try await $0.user(poolId: "p1", sub: "sub-a") }))
        // With groups (a row per group in that statement): the user once, the groups in token order.
        let groups = [("zeta", nil), ("beta", 5), ("admins", 1), ("alpha", 5)].map { name, precedence in
            GroupRecord(poolId: "p1", name: name, description: name == "admins" ? "Ädmins \"all\"" : nil,
                        roleArn: precedence.map { "arn:aws:iam::1:role/r\($0)" }, precedence: precedence,
                        createdAt: t0 + 0.123456, updatedAt: t0 + 1.5)
        }
        try await store.write { tx in
            for group in groups {
                try await tx.insertGroup(group)
                try await tx.addUser(sub: "sub-a", toGroup: group.name, poolId: "p1")
            }
        }
        let inGroups = try await store.read { try await $0.tokenFamilyWithUser(refreshTokenHash: "hash-j2") }
        #expect(inGroups?.groups.map(\.name) == ["admins", "alpha", "beta", "zeta"])
        #expect(inGroups?.groups == (try await store.read { try await $0.groups(ofUser: "sub-a", poolId: "p1") }))
        #expect(inGroups?.user == withUser?.user && inGroups?.family == family("j2"))
        #expect(try await store.read { try await $0.tokenFamilyWithUser(refreshTokenHash: "hash-none") } == nil)
        try await store.write { try await $0.revokeTokenFamily(originJti: "j1", at: t0 + 5) }
        // What a request with an access token reads: the user, and its family's standing.
        let standing = try await store.read { try await $0.user(poolId: "p1", sub: "sub-a", withTokenFamily: "j1") }
        #expect(standing?.user == (try await store.read { try await $0.user(poolId: "p1", sub: "sub-a") }))
        #expect(standing?.family == TokenFamilyStanding(revokedAt: t0 + 5, deviceKey: nil))
        #expect(try await store.read { try await $0.user(poolId: "p1", sub: "sub-a", withTokenFamily: "j2") }?.family
            == TokenFamilyStanding(revokedAt: nil, deviceKey: nil))
        let unknownFamily = try await store.read { try await $0.user(poolId: "p1", sub: "sub-a", withTokenFamily: "none") }
        #expect(unknownFamily != nil && unknownFamily?.family == nil)
        #expect(try await store.read { try await $0.user(poolId: "p1", sub: "nobody", withTokenFamily: "j1") } == nil)
        #expect(try await store.read { try await $0.tokenFamily(originJti: "j1") }?.revokedAt == t0 + 5)
        #expect(try await store.read { try await $0.tokenFamily(originJti: "j2") }?.revokedAt == nil)
        try await store.write { try await $0.revokeTokenFamilies(poolId: "p1", userSub: "sub-a", at: t0 + 9) }
        #expect(try await store.read { try await $0.tokenFamily(originJti: "j1") }?.revokedAt == t0 + 5)
        #expect(try await store.read { try await $0.tokenFamily(originJti: "j2") }?.revokedAt == t0 + 9)
        try await store.write { try await $0.deleteUser(poolId: "p1", sub: "sub-a") }
        #expect(try await store.read { try await $0.tokenFamily(originJti: "j2") } == nil)
    }

    static func cascadingPoolDelete(_ store: SQLStore) async throws {
        try await seed(store, users: [user("a", attributes: ["email": "a@x.io"])])
        try await store.write { tx in
            try await tx.setSignInNames(poolId: "p1", sub: "sub-a", names: ["email:a@x.io"])
            try await tx.saveCode(CodeRecord(poolId: "p1", userSub: "sub-a", purpose: .signUp, codeHash: "h", deliveredTo: nil, createdAt: t0, expiresAt: t0), keepingFailuresSince: t0)
        }
        // What sign-ins write goes with its client, and with its pool.
        func signInRecords(client: String, suffix: String) async throws {
            try await store.write { tx in
                try await tx.insertTokenFamily(TokenFamilyRecord(
                    originJti: "family-\(suffix)", poolId: "p1", clientId: client, userSub: "sub-a",
                    refreshTokenHash: "rt-\(suffix)", authTime: t0, createdAt: t0, expiresAt: t0 + 3600))
                try await tx.insertAuthSession(AuthSessionRecord(
                    tokenHash: "session-\(suffix)", poolId: "p1", clientId: client, userSub: "sub-a", challenge: "SMS_MFA",
                    state: "{}", createdAt: t0, expiresAt: t0 + 180))
                _ = try await tx.recordSignInFailure(poolId: "p1", subject: "decoy-\(suffix)", at: t0)
                try await tx.insertAuthEvent(AuthEventRecord(
                    poolId: "p1", userSub: "sub-a", event: AuthEventType(eventId: "event-\(suffix)", creationDate: t0)))
            }
        }
        func signInRecordsLeft(_ suffix: String) async throws -> [Bool] {
            try await store.read { tx in [
                try await tx.tokenFamily(originJti: "family-\(suffix)") != nil,
                try await tx.authSession(tokenHash: "session-\(suffix)") != nil,
                try await tx.signInLockout(poolId: "p1", subject: "decoy-\(suffix)") != nil,
                try await tx.authEvent(poolId: "p1", eventId: "event-\(suffix)") != nil,
            ] }
        }
        try await store.write { try await $0.insertClient(client("c2", pool: "p1")) }
        try await signInRecords(client: "c1", suffix: "1")
        try await signInRecords(client: "c2", suffix: "2")
        // Deleting a client deletes its families and sessions, nothing of another client's.
        try await store.write { try await $0.deleteClient(poolId: "p1", clientId: "c2") }
        #expect(try await signInRecordsLeft("2") == [false, false, true, true])
        #expect(try await signInRecordsLeft("1") == [true, true, true, true])
        try await store.write { try await $0.deletePool(id: "p1") }
        #expect(try await store.read { try await $0.user(poolId: "p1", sub: "sub-a") } == nil)
        #expect(try await store.read { try await $0.client(id: "c1") } == nil)
        #expect(try await store.read { try await $0.code(poolId: "p1", userSub: "sub-a", purpose: .signUp) } == nil)
        #expect(try await signInRecordsLeft("1") == [false, false, false, false])
        #expect(try await signInRecordsLeft("2") == [false, false, false, false])
        try await seed(store, users: [user("a", attributes: ["email": "a@x.io"])])  // nothing left behind to collide with
        try await store.write { try await $0.setSignInNames(poolId: "p1", sub: "sub-a", names: ["email:a@x.io"]) }
    }

    static func keysSecretsCounters(_ store: SQLStore) async throws {
        try await seed(store)
        try await store.write { try await $0.insertPool(pool("p2")) }
        let key = SigningKeyRecord(kid: "k1", poolId: "p1", privateKeyPEM: "pem", createdAt: t0, activatesAt: t0)
        let shared = SigningKeyRecord(kid: "k0", poolId: nil, privateKeyPEM: "pem0", createdAt: t0 - 1, activatesAt: t0 - 1,
                                      expiresAt: t0 + 100)
        let other = SigningKeyRecord(kid: "k2", poolId: "p2", privateKeyPEM: "pem2", createdAt: t0 + 1, activatesAt: t0 + 1)
        try await store.write { tx in for record in [key, shared, other] { try await tx.insertSigningKey(record) } }
        await expectConflict(.signingKey) { try await store.write { try await $0.insertSigningKey(key) } }
        // A pool sees its own keys and the shared ones, never another pool's.
        #expect(try await store.read { try await $0.signingKeys(poolId: "p1") } == [shared, key])
        #expect(try await store.read { try await $0.allSigningKeys() } == [shared, key, other])
        // Rotation expires the others; retiring marks one.
        let next = SigningKeyRecord(kid: "k3", poolId: "p1", privateKeyPEM: "pem3", createdAt: t0 + 2, activatesAt: t0 + 62)
        try await store.write { tx in
            try await tx.insertSigningKey(next)
            try await tx.expireSigningKeys(poolId: "p1", except: "k3", at: t0 + 1000)
        }
        #expect(try await store.read { try await $0.signingKeys(poolId: "p1") }.map(\.expiresAt) == [t0 + 100, t0 + 1000, nil])
        #expect(try await store.write { try await $0.retireSigningKey(kid: "k3", at: t0 + 5) }?.retiredAt == t0 + 5)
        #expect(try await store.write { try await $0.retireSigningKey(kid: "nope", at: t0 + 5) } == nil)
        #expect(try await store.write { try await $0.deleteExpired(.signingKeys, before: t0 + 200, limit: 10) } == 2)  // k0, k3
        #expect(try await store.read { try await $0.allSigningKeys() }.map(\.kid) == ["k1", "k2"])
        // Deleting a pool deletes its keys.
        try await store.write { try await $0.deletePool(id: "p2") }
        #expect(try await store.read { try await $0.allSigningKeys() }.map(\.kid) == ["k1"])
        let first = try await store.write { try await $0.insertServerSecretIfAbsent(named: "s", value: [1, 2, 3]) }
        let second = try await store.write { try await $0.insertServerSecretIfAbsent(named: "s", value: [4, 5, 6]) }
        #expect(first == [1, 2, 3] && second == [1, 2, 3])
        #expect(try await store.write { try await $0.incrementCounter(key: "k", windowStart: t0) } == 1)
        #expect(try await store.write { try await $0.incrementCounter(key: "k", windowStart: t0) } == 2)
        #expect(try await store.write { try await $0.incrementCounter(key: "k", windowStart: t0 + 3600) } == 1)
    }

    static func rollback(_ store: SQLStore) async throws {
        try await seed(store)
        struct Boom: Error {}
        do {
            try await store.write { tx in
                try await tx.insertUser(user("ghost"))
                throw Boom()
            }
        } catch is Boom {}
        #expect(try await store.read { try await $0.user(poolId: "p1", usernameKey: "ghost") } == nil)
        try await store.write { try await $0.insertUser(user("ghost")) }
    }

    static func singleStatementWrite(_ store: SQLStore) async throws {
        try await seed(store)
        @Sendable func session(_ hash: String) -> AuthSessionRecord {
            AuthSessionRecord(tokenHash: hash, poolId: "p1", clientId: "c1", userSub: nil, challenge: "PASSWORD_VERIFIER",
                              state: "{}", createdAt: t0, expiresAt: t0 + 180)
        }
        try await store.writeSingleStatement { try await $0.insertAuthSession(session("one")) }
        #expect(try await store.read { try await $0.authSession(tokenHash: "one") } == session("one"))
        await expectConflict(.authSession) {
            try await store.writeSingleStatement { try await $0.insertAuthSession(session("one")) }
        }
        await #expect(throws: SQLError.self) {
            try await store.writeSingleStatement { tx in
                try await tx.insertAuthSession(session("two"))
                try await tx.insertAuthSession(session("three"))
            }
        }
        #expect(try await store.read { try await $0.authSession(tokenHash: "three") } == nil)
        // Still usable afterwards (no transaction was left open on the connection).
        try await store.write { try await $0.insertUser(user("after")) }
    }

    /// A user, its attributes, its code and an outbox message are inserts PostgreSQL sends
    /// together (one statement when nothing else runs in the write); every backend must give
    /// the same rows and the same errors as if each ran at once.
    static func heldInserts(_ store: SQLStore) async throws {
        try await seed(store)
        @Sendable func code(for sub: String) -> CodeRecord {
            CodeRecord(poolId: "p1", userSub: sub, purpose: .signUp, codeHash: "h-\(sub)", deliveredTo: "email",
                       createdAt: t0, expiresAt: t0 + 60)
        }
        @Sendable func message(to name: String) -> OutboundMessage {
            OutboundMessage(poolId: "p1", username: name, medium: .email, destination: "\(name)@x.io", subject: nil,
                            body: "b", code: nil, purpose: "signUp")
        }
        @Sendable func signUp(_ user: UserRecord, in tx: any StoreTransaction) async throws {
            try await tx.insertUser(user)
            try await tx.saveCode(code(for: user.sub), keepingFailuresSince: t0)
            try await tx.appendOutboxMessage(message(to: user.username), at: t0, expiresAt: t0 + 60)
        }
        let ann = user("ann", attributes: ["email": "ann@x.io"])
        try await store.write { try await signUp(ann, in: $0) }
        #expect(try await store.read { try await $0.user(poolId: "p1", usernameKey: "ann") } == ann)
        #expect(try await store.read { try await $0.code(poolId: "p1", userSub: "sub-ann", purpose: .signUp) }?.codeHash == "h-sub-ann")

        // A taken username fails the write, whichever call reports it, and leaves none of it.
        var twin = user("ANN", attributes: ["email": "twin@x.io"])
        twin.sub = "sub-twin"
        await expectConflict(.username) { try await store.write { [twin] in try await signUp(twin, in: $0) } }
        #expect(try await store.read { try await $0.code(poolId: "p1", userSub: "sub-twin", purpose: .signUp) } == nil)
        #expect(try await store.read { try await $0.outboxMessages(poolId: "p1", afterId: nil, limit: 10) }.count == 1)

        // Two users in one write (a table already waiting sends the first one on), then a read
        // in the same write sees both.
        let seen = try await store.write { tx in
            try await signUp(user("bo"), in: tx)
            try await signUp(user("cy"), in: tx)
            return try await tx.countUsers(poolId: "p1")
        }
        #expect(seen == 3)
        await expectConflict(.username) {
            try await store.write { tx in
                try await tx.insertUser(user("dee"))
                var again = user("dee")
                again.sub = "sub-dee-2"
                try await tx.insertUser(again)
            }
        }
        #expect(try await store.read { try await $0.user(poolId: "p1", usernameKey: "dee") } == nil)

        // A code for no user is a missing reference; a body that throws leaves nothing.
        await #expect(throws: StoreError.referenceMissing) {
            try await store.write { try await $0.saveCode(code(for: "sub-nobody"), keepingFailuresSince: t0) }
        }
        struct Boom: Error {}
        await #expect(throws: Boom.self) {
            try await store.write { tx in
                try await signUp(user("eve"), in: tx)
                throw Boom()
            }
        }
        #expect(try await store.read { try await $0.user(poolId: "p1", usernameKey: "eve") } == nil)
        #expect(try await store.read { try await $0.outboxMessages(poolId: "p1", afterId: nil, limit: 10) }.count == 3)
    }

    static func parallelUsernames(_ store: SQLStore) async throws {
        try await seed(store)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    var candidate = user("same")
                    candidate.sub = "sub-\(index)"
                    do {
                        try await store.write { [candidate] in try await $0.insertUser(candidate) }
                        return true
                    } catch {
                        return false
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try await store.read { try await $0.countUsers(poolId: "p1") } == 1)
    }

    static func parallelCodeRedemption(_ store: SQLStore) async throws {
        try await seed(store, users: [user("a")])
        try await store.write {
            try await $0.saveCode(CodeRecord(poolId: "p1", userSub: "sub-a", purpose: .signUp, codeHash: "h", deliveredTo: nil, createdAt: t0, expiresAt: t0 + 60), keepingFailuresSince: t0)
        }
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    (try? await store.write { tx -> Bool in
                        _ = try await tx.user(poolId: "p1", sub: "sub-a", forUpdate: true)
                        guard try await tx.code(poolId: "p1", userSub: "sub-a", purpose: .signUp) != nil else { return false }
                        try await tx.deleteCode(poolId: "p1", userSub: "sub-a", purpose: .signUp)
                        return true
                    }) ?? false
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
    }

    static func messageQueue(_ store: SQLStore) async throws {
        let message = OutboundMessage(poolId: "p1", username: "a", medium: .email, destination: "a@example.com",
                                      subject: "Code", body: "Your code is 123456", code: "123456", purpose: "signUp",
                                      sender: "Example <no-reply@example.com>")
        let held = try await store.write { try await $0.enqueueMessage(message, at: t0, heldUntil: t0 + 120) }
        let other = try await store.write { try await $0.enqueueMessage(message, at: t0, heldUntil: t0 + 10) }
        // Held by the request that queued it: not due, not claimable, until the hold ends.
        #expect(try await store.read { try await $0.dueMessages(now: t0 + 5, limit: 10) } == [])
        #expect(try await store.write { try await $0.claimMessage(id: held, now: t0 + 5, heldUntil: t0 + 200) } == nil)
        #expect(try await store.read { try await $0.dueMessages(now: t0 + 130, limit: 10) } == [other, held])
        #expect(try await store.read { try await $0.dueMessages(now: t0 + 130, limit: 1) } == [other])

        // Of parallel claims (several nodes retrying), exactly one gets the message.
        let claims = await withTaskGroup(of: QueuedMessage?.self) { group in
            for _ in 0..<8 {
                group.addTask { try? await store.write { try await $0.claimMessage(id: held, now: t0 + 130, heldUntil: t0 + 250) } }
            }
            return await group.reduce(into: [QueuedMessage]()) { if let claim = $1 { $0.append(claim) } }
        }
        #expect(claims.count == 1)
        #expect(claims.first?.message == message)
        #expect(claims.first?.attempts == 2)
        #expect(claims.first?.createdAt == t0)

        // Rescheduled with the text last attempted (as a CustomMessage function rewrote it).
        var rewritten = try #require(claims.first)
        rewritten.message.subject = "Welcome"
        rewritten.message.body = "Welcome! Your code is 123456"
        try await store.write { [rewritten] in
            try await $0.rescheduleMessage(rewritten, at: t0 + 400, error: String(repeating: "x", count: 2000))
        }
        #expect(try await store.read { try await $0.dueMessages(now: t0 + 300, limit: 10) } == [other])
        try await store.write { try await $0.removeMessage(id: other) }
        #expect(try await store.read { try await $0.dueMessages(now: t0 + 400, limit: 10) } == [held])
        let again = try await store.write { try await $0.claimMessage(id: held, now: t0 + 400, heldUntil: t0 + 520) }
        #expect(again?.message == rewritten.message)
        #expect(again?.attempts == 3)
        #expect(try await store.write { try await $0.claimMessage(id: other, now: t0 + 600, heldUntil: t0 + 700) } == nil)
    }

    static func parallelCounters(_ store: SQLStore) async throws {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask { _ = try? await store.write { try await $0.incrementCounter(key: "hot", windowStart: t0) } }
            }
        }
        #expect(try await store.write { try await $0.incrementCounter(key: "hot", windowStart: t0) } == 21)
    }

    static func parallelRefreshes(_ store: SQLStore) async throws {
        try await seed(store, users: [user("a")])
        let family = TokenFamilyRecord(originJti: "j", poolId: "p1", clientId: "c1", userSub: "sub-a", refreshTokenHash: "h",
                                       authTime: t0, createdAt: t0, expiresAt: t0 + 3600)
        try await store.write { try await $0.insertTokenFamily(family) }
        let seen = try await withThrowingTaskGroup(of: TokenFamilyRecord?.self) { group in
            for index in 0..<16 {
                group.addTask {
                    if index == 8 { try await store.write { try await $0.revokeTokenFamily(originJti: "j", at: t0 + 1) } }
                    return try await store.read { transaction in
                        let found = try await transaction.tokenFamily(refreshTokenHash: "h")
                        _ = try await transaction.user(poolId: "p1", sub: "sub-a")
                        _ = try await transaction.groups(ofUser: "sub-a", poolId: "p1")
                        return found
                    }
                }
            }
            return try await group.reduce(into: [TokenFamilyRecord?]()) { $0.append($1) }
        }
        #expect(seen.count == 16 && seen.allSatisfy { $0?.originJti == "j" })
        #expect(try await store.read { try await $0.tokenFamily(originJti: "j") }?.revokedAt == t0 + 1)
    }

    static func parallelGroupChanges(_ store: SQLStore) async throws {
        let people = (0..<8).map { user("m\($0)") }
        try await seed(store, users: people)
        try await store.write {
            try await $0.insertGroup(GroupRecord(poolId: "p1", name: "g", description: nil, roleArn: nil, precedence: 1,
                                                 createdAt: t0, updatedAt: t0))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<24 {
                group.addTask {
                    try await store.write { try await $0.addUser(sub: people[index % 8].sub, toGroup: "g", poolId: "p1") }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.read { try await $0.listUsers(inGroup: "g", poolId: "p1", after: nil, limit: 60) }.items.count == 8)
        // Removing memberships while the group is deleted: every outcome is clean.
        await withTaskGroup(of: Void.self) { group in
            for person in people {
                group.addTask { _ = try? await store.write { try await $0.removeUser(sub: person.sub, fromGroup: "g", poolId: "p1") } }
            }
            group.addTask { _ = try? await store.write { try await $0.deleteGroup(poolId: "p1", name: "g") } }
        }
        #expect(try await store.read { try await $0.group(poolId: "p1", name: "g") } == nil)
        #expect(try await store.read { try await $0.groups(ofUser: "sub-m0", poolId: "p1") }.isEmpty)
    }

    static func sweeping(_ store: SQLStore) async throws {
        try await seed(store, users: [user("a")])
        let message = OutboundMessage(poolId: "p1", username: "a", medium: .email, destination: "a@x.io", subject: nil,
                                      body: "b", code: "1", purpose: "signUp")
        try await store.write { tx in
            for index in 0..<5 {
                try await tx.appendOutboxMessage(message, at: t0, expiresAt: t0 + Double(index))  // expire at t0 … t0+4
                try await tx.insertTokenFamily(TokenFamilyRecord(
                    originJti: "j\(index)", poolId: "p1", clientId: "c1", userSub: "sub-a", refreshTokenHash: "h\(index)",
                    authTime: t0, createdAt: t0, expiresAt: t0 + Double(index)))
                _ = try await tx.incrementCounter(key: "k\(index)", windowStart: t0 + Double(index))
                _ = try await tx.recordSignInFailure(poolId: "p1", subject: "s\(index)", at: t0 + Double(index))
            }
        }
        for kind in [ExpiringRecords.outbox, .tokenFamilies, .counters, .signInFailures] {
            // Records before t0+3 go (three of them), two at a time.
            #expect(try await store.write { try await $0.deleteExpired(kind, before: t0 + 3, limit: 2) } == 2, "\(kind)")
            #expect(try await store.write { try await $0.deleteExpired(kind, before: t0 + 3, limit: 2) } == 1, "\(kind)")
            #expect(try await store.write { try await $0.deleteExpired(kind, before: t0 + 3, limit: 2) } == 0, "\(kind)")
        }
        #expect(try await store.read { try await $0.outboxMessages(poolId: "p1", afterId: nil, limit: 10) }.count == 2)
        #expect(try await store.read { try await $0.tokenFamily(originJti: "j2") } == nil)
        #expect(try await store.read { try await $0.tokenFamily(originJti: "j3") } != nil)
        #expect(try await store.read { try await $0.signInLockout(poolId: "p1", subject: "s4") }?.failures == 1)
        // A lockout still running is kept whatever the age of the last failure.
        try await store.write { try await $0.extendSignInLockout(poolId: "p1", subject: "s4", until: t0 + 100) }
        #expect(try await store.write { try await $0.deleteExpired(.signInFailures, before: t0 + 50, limit: 10) } == 1)
        #expect(try await store.read { try await $0.signInLockout(poolId: "p1", subject: "s4") } != nil)
    }

    static func mfaAndDevices(_ store: SQLStore) async throws {
        try await seed(store, users: [user("a")])
        let withMfa = PoolRecord(
            id: "p1", name: "pool p1", createdAt: t0, updatedAt: t0, settings: pool("p1").settings,
            mfa: PoolMfaSettings(softwareToken: true))
        try await store.write { try await $0.updatePool(withMfa) }
        #expect(try await store.read { try await $0.pool(id: "p1") }?.mfa == PoolMfaSettings(softwareToken: true))
        let pendingApp = UserMfaRecord(poolId: "p1", userSub: "sub-a", pendingTotpSecret: "PENDING", updatedAt: t0)
        try await store.write { try await $0.saveUserMfa(pendingApp) }
        #expect(try await store.read { try await $0.userMfa(poolId: "p1", sub: "sub-a") } == pendingApp)
        let verifiedApp = UserMfaRecord(
            poolId: "p1", userSub: "sub-a", totpSecret: "SECRET", totpEnabled: true, preferred: "SOFTWARE_TOKEN_MFA",
            updatedAt: t0 + 1)
        try await store.write { try await $0.saveUserMfa(verifiedApp) }   // an upsert
        #expect(try await store.read { try await $0.userMfa(poolId: "p1", sub: "sub-a") } == verifiedApp)
        // Of concurrent uses of one step exactly one succeeds; an older step never does.
        let uses = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<6 { group.addTask { try await store.write { try await $0.useTotpStep(poolId: "p1", sub: "sub-a", step: 100) } } }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(uses.filter { $0 }.count == 1)
        #expect(try await store.write { try await $0.useTotpStep(poolId: "p1", sub: "sub-a", step: 99) } == false)
        #expect(try await store.write { try await $0.useTotpStep(poolId: "p1", sub: "sub-a", step: 101) } == true)

        let announced = DeviceRecord(deviceKey: "us-east-1_0000", poolId: "p1", userSub: "sub-a", groupKey: "-g",
                                     createdAt: t0, updatedAt: t0)
        let key = "us-east-1_0001"
        try await store.write { tx in
            try await tx.insertDevice(announced)
            try await tx.insertDevice(DeviceRecord(deviceKey: key, poolId: "p1", userSub: "sub-a", groupKey: "-g",
                                                   createdAt: t0, updatedAt: t0))
            try await tx.insertTokenFamily(TokenFamilyRecord(
                originJti: "on-device", poolId: "p1", clientId: "c1", userSub: "sub-a", refreshTokenHash: "h",
                authTime: t0, createdAt: t0, expiresAt: t0 + 1000, deviceKey: key))
        }
        let confirmed = DeviceRecord(
            deviceKey: key, poolId: "p1", userSub: "sub-a", groupKey: "-g", salt: "00ff", verifier: "0a0b", name: "phone",
            remembered: true, createdAt: t0, updatedAt: t0 + 5, lastAuthenticatedAt: t0 + 5)
        try await store.write { try await $0.updateDevice(confirmed) }
        #expect(try await store.read { try await $0.device(poolId: "p1", key: key) } == confirmed)
        #expect(try await store.read { try await $0.user(poolId: "p1", sub: "sub-a", withTokenFamily: "on-device") }?.family
            == TokenFamilyStanding(revokedAt: nil, deviceKey: key))
        #expect(try await store.read { try await $0.device(poolId: "p2", key: key) } == nil)
        // Listings show confirmed devices only.
        #expect(try await store.read { try await $0.devices(poolId: "p1", userSub: "sub-a", after: nil, limit: 10) }.items
            == [confirmed])
        // Unconfirmed devices are swept a while after they were announced; confirmed ones stay.
        #expect(try await store.write { try await $0.deleteExpired(.unconfirmedDevices, before: t0 + 1, limit: 10) } == 1)
        #expect(try await store.read { try await $0.device(poolId: "p1", key: announced.deviceKey) } == nil)
        try await store.write { try await $0.revokeTokenFamilies(poolId: "p1", deviceKey: key, at: t0 + 9) }
        #expect(try await store.read { try await $0.tokenFamily(originJti: "on-device") }?.revokedAt == t0 + 9)
        // The user's deletion takes MFA and devices with it.
        try await store.write { try await $0.deleteUser(poolId: "p1", sub: "sub-a") }
        #expect(try await store.read { try await $0.userMfa(poolId: "p1", sub: "sub-a") } == nil)
        #expect(try await store.read { try await $0.device(poolId: "p1", key: key) } == nil)
    }

    static func mfaCodesAndPins(_ store: SQLStore) async throws {
        try await seed(store, users: [user("a")])
        let configured = PoolRecord(
            id: "p1", name: "pool p1", createdAt: t0, updatedAt: t0, settings: pool("p1").settings,
            mfa: PoolMfaSettings(sms: true, smsMessage: "Code {####}", email: true, emailSubject: "Code"),
            pinPolicy: PinPolicy(minimumLength: 6, blockList: ["123123"], maximumAttempts: 5))
        try await store.write { try await $0.updatePool(configured) }
        #expect(try await store.read { try await $0.pool(id: "p1") } == configured)
        let codes = UserMfaRecord(poolId: "p1", userSub: "sub-a", smsEnabled: true, emailEnabled: true, preferred: "EMAIL_OTP",
                                  updatedAt: t0)
        try await store.write { try await $0.saveUserMfa(codes) }
        #expect(try await store.read { try await $0.userMfa(poolId: "p1", sub: "sub-a") } == codes)
        let device = DeviceRecord(
            deviceKey: "us-east-1_pin", poolId: "p1", userSub: "sub-a", groupKey: "-g", salt: "00ff", verifier: "0a0b",
            remembered: true, createdAt: t0, updatedAt: t0, pin: DevicePin(salt: "11", verifier: "0c0d", registeredAt: t0 + 2))
        try await store.write { try await $0.insertDevice(device) }
        #expect(try await store.read { try await $0.device(poolId: "p1", key: device.deviceKey) } == device)
        var withoutPin = device
        withoutPin.pin = nil
        let cleared = withoutPin
        try await store.write { try await $0.updateDevice(cleared) }
        #expect(try await store.read { try await $0.device(poolId: "p1", key: device.deviceKey) } == cleared)
    }

    static func passkeys(_ store: SQLStore) async throws {
        try await seed(store, users: [user("a"), user("b")])
        @Sendable func passkey(_ id: String, of sub: String = "sub-a", pool: String = "p1") -> PasskeyRecord {
            PasskeyRecord(
                credentialId: id, poolId: pool, userSub: sub, publicKey: [0xa5, 0x01, 0x02, 0xff], signCount: 7,
                backupEligible: true, relyingPartyId: "example.com", friendlyName: "Phone", attachment: "platform",
                transports: ["internal", "hybrid"], aaguid: "00000000-0000-0000-0000-000000000000", createdAt: t0)
        }
        try await store.write { tx in
            for id in ["c3", "c1", "c2"] { try await tx.insertPasskey(passkey(id)) }
            try await tx.insertPasskey(passkey("b1", of: "sub-b"))
        }
        #expect(try await store.read { try await $0.passkey(poolId: "p1", credentialId: "c1") } == passkey("c1"))
        #expect(try await store.read { try await $0.passkey(poolId: "p2", credentialId: "c1") } == nil)
        // A credential ID is the pool's once, whoever registers it.
        await expectConflict(.passkey) { try await store.write { try await $0.insertPasskey(passkey("c1", of: "sub-b")) } }
        #expect(try await store.read { try await $0.passkeyCount(poolId: "p1", userSub: "sub-a") } == 3)
        let first = try await store.read { try await $0.passkeys(poolId: "p1", userSub: "sub-a", after: nil, limit: 2) }
        #expect(first.items.map(\.credentialId) == ["c1", "c2"] && first.next == "c2")
        let rest = try await store.read { try await $0.passkeys(poolId: "p1", userSub: "sub-a", after: "c2", limit: 2) }
        #expect(rest.items.map(\.credentialId) == ["c3"] && rest.next == nil)
        try await store.write { try await $0.recordPasskeyUse(poolId: "p1", credentialId: "c1", signCount: 9, at: t0 + 5) }
        let used = try await store.read { try await $0.passkey(poolId: "p1", credentialId: "c1") }
        #expect(used?.signCount == 9 && used?.lastUsedAt == t0 + 5)
        // Only the owner's passkey is deleted.
        #expect(try await store.write { try await $0.deletePasskey(poolId: "p1", userSub: "sub-b", credentialId: "c1") } == false)
        #expect(try await store.write { try await $0.deletePasskey(poolId: "p1", userSub: "sub-a", credentialId: "c1") } == true)
        #expect(try await store.read { try await $0.passkey(poolId: "p1", credentialId: "c1") } == nil)
        try await store.write { try await $0.deleteUser(poolId: "p1", sub: "sub-a") }
        #expect(try await store.read { try await $0.passkeyCount(poolId: "p1", userSub: "sub-a") } == 0)
        #expect(try await store.read { try await $0.passkeyCount(poolId: "p1", userSub: "sub-b") } == 1)
    }

    static func userSessions(_ store: SQLStore) async throws {
        try await seed(store, users: [user("a")])
        @Sendable func family(_ jti: String, created: TimeInterval, expires: TimeInterval = 1000) -> TokenFamilyRecord {
            TokenFamilyRecord(originJti: jti, poolId: "p1", clientId: "c1", userSub: "sub-a", refreshTokenHash: "h-" + jti,
                              authTime: t0, createdAt: t0 + created, expiresAt: t0 + expires)
        }
        try await store.write { tx in
            try await tx.insertTokenFamily(family("s2", created: 2))
            try await tx.insertTokenFamily(family("s1", created: 1))
            try await tx.insertTokenFamily(family("gone", created: 3))
            try await tx.insertTokenFamily(family("old", created: 0, expires: 5))
            try await tx.revokeTokenFamily(originJti: "gone", at: t0 + 4)
        }
        let seen = SessionActivity(lastActiveAt: t0 + 7, address: "198.51.100.1", deviceType: "Chrome on macOS")
        try await store.write { try await $0.recordSessionActivity(originJti: "s2", seen) }
        let later = SessionActivity(lastActiveAt: t0 + 8, address: "2001:db8::1", deviceType: nil)
        try await store.write { try await $0.recordSessionActivity(originJti: "s2", later) }   // replaced
        let sessions = try await store.read { try await $0.userSessions(poolId: "p1", userSub: "sub-a", now: t0 + 10) }
        #expect(sessions.map(\.family.originJti) == ["s1", "s2"])
        #expect(sessions[0].activity == nil && sessions[1].activity == later)
        // Settings of pools and clients round-trip.
        var pool = try #require(try await store.read { try await $0.pool(id: "p1") })
        pool.sessions = PoolSessionSettings(tracking: true, maxPerUser: 7)
        let withSessions = pool
        try await store.write { try await $0.updatePool(withSessions) }
        #expect(try await store.read { try await $0.pool(id: "p1") }?.sessions == PoolSessionSettings(tracking: true, maxPerUser: 7))
        var client = try #require(try await store.read { try await $0.client(id: "c1") })
        client.ssoSessionMaxValidityMinutes = 30
        let withSSO = client
        try await store.write { try await $0.updateClient(withSSO) }
        #expect(try await store.read { try await $0.client(id: "c1") }?.ssoSessionMaxValidityMinutes == 30)
        // The user's deletion takes families and their activity with it.
        try await store.write { try await $0.deleteUser(poolId: "p1", sub: "sub-a") }
        #expect(try await store.read { try await $0.userSessions(poolId: "p1", userSub: "sub-a", now: t0) }.isEmpty)
    }

    static func oauthRecords(_ store: SQLStore) async throws {
        try await seed(store, users: [user("a")])
        let domain = DomainRecord(domain: "login", poolId: "p1", createdAt: t0)
        try await store.write { try await $0.insertDomain(domain) }
        #expect(try await store.read { try await $0.domain(named: "login") } == domain)
        #expect(try await store.read { try await $0.domain(ofPool: "p1") } == domain)
        // A domain is unique on the server, and a pool has one.
        for taken in [DomainRecord(domain: "login", poolId: "p2", createdAt: t0), DomainRecord(domain: "other", poolId: "p1", createdAt: t0)] {
            await #expect(throws: StoreError.conflict(.domain)) { try await store.write { try await $0.insertDomain(taken) } }
        }
        try await store.write { try await $0.deleteDomain(named: "login") }
        #expect(try await store.read { try await $0.domain(named: "login") } == nil)

        let api = ResourceServerRecord(poolId: "p1", identifier: "https://api", name: "API",
                                       scopes: [ResourceServerScopeType(scopeName: "read", scopeDescription: "Read")])
        try await store.write { tx in
            try await tx.insertResourceServer(api)
            try await tx.insertResourceServer(ResourceServerRecord(poolId: "p1", identifier: "billing", name: "B", scopes: []))
        }
        await #expect(throws: StoreError.conflict(.resourceServer)) { try await store.write { try await $0.insertResourceServer(api) } }
        var renamed = api
        renamed.name = "API v2"
        let updated = renamed
        try await store.write { try await $0.updateResourceServer(updated) }
        #expect(try await store.read { try await $0.resourceServer(poolId: "p1", identifier: "https://api") } == updated)
        let first = try await store.read { try await $0.resourceServers(poolId: "p1", after: nil, limit: 1) }
        #expect(first.items.map(\.identifier) == ["billing"] && first.next == "billing")
        #expect(try await store.read { try await $0.resourceServers(poolId: "p1", after: "billing", limit: 1) }.items == [updated])
        try await store.write { try await $0.deleteResourceServer(poolId: "p1", identifier: "billing") }
        #expect(try await store.read { try await $0.resourceServer(poolId: "p1", identifier: "billing") } == nil)

        try await store.write { tx in
            try await tx.insertTokenFamily(TokenFamilyRecord(
                originJti: "hosted", poolId: "p1", clientId: "c1", userSub: "sub-a", refreshTokenHash: "hh", authTime: t0,
                createdAt: t0, expiresAt: t0 + 100))
            try await tx.setTokenFamilyScopes(originJti: "hosted", scopes: ["openid", "https://api/read"])
        }
        #expect(try await store.read { try await $0.tokenFamily(originJti: "hosted") }?.scopes == ["openid", "https://api/read"])

        // Rotation: the new hash is current, the presented one previous; a retry with the previous
        // replaces the current again; a hash that is neither rotates nothing.
        #expect(try await store.write { try await $0.rotateRefreshToken(
            originJti: "hosted", presentedHash: "hh", newHash: "h2", previousValidUntil: t0 + 60) })
        let rotated = try await store.read { try await $0.tokenFamily(refreshTokenHash: "hh") }
        #expect(rotated?.refreshTokenHash == "h2" && rotated?.previousRefreshTokenHash == "hh" && rotated?.previousValidUntil == t0 + 60)
        #expect(try await store.write { try await $0.rotateRefreshToken(
            originJti: "hosted", presentedHash: "hh", newHash: "h3", previousValidUntil: t0 + 90) })
        let previous = try await store.read { try await $0.tokenFamilyWithUser(refreshTokenHash: "hh") }
        #expect(previous?.family.originJti == "hosted" && previous?.user?.sub == "sub-a" && previous?.groups == [])
        let retried = try await store.read { try await $0.tokenFamily(refreshTokenHash: "h3") }
        #expect(retried?.previousRefreshTokenHash == "hh" && retried?.previousValidUntil == t0 + 60)
        #expect(try await store.read { try await $0.tokenFamily(refreshTokenHash: "h2") } == nil)
        #expect(try await store.write { try await $0.rotateRefreshToken(
            originJti: "hosted", presentedHash: "h2", newHash: "h4", previousValidUntil: t0 + 90) } == false)
    }

    static func signInFailures(_ store: SQLStore) async throws {
        try await seed(store, users: [user("a")])
        for subject in ["sub-a", "decoy:0123"] {
            #expect(try await store.write { try await $0.recordSignInFailure(poolId: "p1", subject: subject, at: t0) } == 1)
            #expect(try await store.write { try await $0.recordSignInFailure(poolId: "p1", subject: subject, at: t0) } == 2)
            try await store.write { try await $0.extendSignInLockout(poolId: "p1", subject: subject, until: t0 + 10) }
            try await store.write { try await $0.extendSignInLockout(poolId: "p1", subject: subject, until: t0 + 5) }  // shorter: kept
            #expect(try await store.read { try await $0.signInLockout(poolId: "p1", subject: subject) }
                == SignInLockout(failures: 2, lockedUntil: t0 + 10))
            try await store.write { try await $0.clearSignInLockout(poolId: "p1", subject: subject) }
            #expect(try await store.read { try await $0.signInLockout(poolId: "p1", subject: subject) } == nil)
        }
    }

    static func signInStanding(_ store: SQLStore) async throws {
        try await seed(store, users: [user("a")])
        let none = SignInStanding(lockout: nil, groups: [])
        #expect(try await store.read { try await $0.signInStanding(poolId: "p1", sub: "sub-a") } == none)
        #expect(try await store.read { try await $0.signInStanding(poolId: "p1", sub: "nobody") } == none)
        // Groups (a row per group in that statement) and a failure record.
        try await store.write { tx in
            for (name, precedence) in [("zeta", nil), ("beta", 5), ("admins", 1)] as [(String, Int?)] {
                try await tx.insertGroup(GroupRecord(poolId: "p1", name: name, description: nil, roleArn: nil,
                                                     precedence: precedence, createdAt: t0, updatedAt: t0 + 0.25))
                try await tx.addUser(sub: "sub-a", toGroup: name, poolId: "p1")
            }
            _ = try await tx.recordSignInFailure(poolId: "p1", subject: "sub-a", at: t0)
            _ = try await tx.recordSignInFailure(poolId: "p1", subject: "sub-a", at: t0)
            try await tx.extendSignInLockout(poolId: "p1", subject: "sub-a", until: t0 + 10)
        }
        let standing = try await store.read { try await $0.signInStanding(poolId: "p1", sub: "sub-a") }
        #expect(standing.lockout == SignInLockout(failures: 2, lockedUntil: t0 + 10))
        #expect(standing.groups.map(\.name) == ["admins", "beta", "zeta"])
        #expect(standing.groups == (try await store.read { try await $0.groups(ofUser: "sub-a", poolId: "p1") }))
        // Read after the user's lock, as a password check does, it sees the failure a concurrent
        // attempt recorded under that lock (joined to the locked read, PostgreSQL would answer
        // from the snapshot taken before the wait).
        let (locked, lockedSignal) = AsyncStream<Void>.makeStream()
        async let first: Void = store.write { tx in
            _ = try await tx.user(poolId: "p1", sub: "sub-a", forUpdate: true)
            lockedSignal.yield()
            try await Task.sleep(for: .milliseconds(300))
            _ = try await tx.recordSignInFailure(poolId: "p1", subject: "sub-a", at: t0 + 1)
            try await tx.extendSignInLockout(poolId: "p1", subject: "sub-a", until: t0 + 20)
        }
        for await _ in locked { break }
        let second = try await store.write { tx in
            _ = try await tx.user(poolId: "p1", sub: "sub-a", forUpdate: true)
            return try await tx.signInStanding(poolId: "p1", sub: "sub-a")
        }
        try await first
        #expect(second.lockout == SignInLockout(failures: 3, lockedUntil: t0 + 20))
    }

    static func signInWithoutLock(_ store: SQLStore) async throws {
        let a = { var a = user("a"); a.status = .confirmed; return a }()
        try await seed(store, users: [a])
        try await store.write { tx in
            try await tx.insertGroup(GroupRecord(poolId: "p1", name: "staff", description: nil, roleArn: nil,
                                                 precedence: 2, createdAt: t0, updatedAt: t0))
            try await tx.addUser(sub: "sub-a", toGroup: "staff", poolId: "p1")
            try await tx.addSignInNames(poolId: "p1", sub: "sub-a", names: ["email:a@example.com"])
        }
        // The read before the verdict: the user with its standing, by username key or sign-in name.
        let read = try #require(try await store.read { try await $0.userForSignIn(poolId: "p1", usernameKey: "a") })
        #expect(read.user == a)
        #expect(read.standing.lockout == nil)
        #expect(read.standing.groups.map(\.name) == ["staff"])
        let byName = try await store.read { try await $0.userForSignIn(poolId: "p1", signInName: "email:a@example.com") }
        #expect(byName?.user == a && byName?.standing == read.standing)
        let bySub = try await store.read { try await $0.userForSignIn(poolId: "p1", sub: "sub-a") }
        #expect(bySub?.user == a && bySub?.standing == read.standing)
        #expect(try await store.read { try await $0.userForSignIn(poolId: "p1", usernameKey: "nobody") } == nil)

        var serial = 0
        func attempt(as read: UserRecord) async throws -> (stored: Bool, jti: String) {
            serial += 1
            let family = TokenFamilyRecord(
                originJti: "quick-\(serial)", poolId: "p1", clientId: "c1", userSub: "sub-a", refreshTokenHash: "qh-\(serial)",
                authTime: t0, createdAt: t0, expiresAt: t0 + 3600)
            let stored = try await store.writeSingleStatement { try await $0.insertTokenFamily(family, ifSignInStands: read) }
            return (stored, family.originJti)
        }
        func exists(_ jti: String) async throws -> Bool {
            try await store.read { try await $0.tokenFamily(originJti: jti) } != nil
        }
        let standing = try await attempt(as: a)
        #expect(standing.stored)
        #expect(try await exists(standing.jti))
        // A failure record appeared: nothing stored.
        _ = try await store.write { try await $0.recordSignInFailure(poolId: "p1", subject: "sub-a", at: t0) }
        let failed = try await attempt(as: a)
        #expect(!failed.stored)
        #expect(try await !exists(failed.jti))
        try await store.write { try await $0.clearSignInLockout(poolId: "p1", subject: "sub-a") }
        // The password, the status or the enabled flag changed since the read: nothing stored.
        var changes: [(inout UserRecord) -> Void] = []
        changes.append { $0.password = StoredPassword(salt: [1], verifier: [2]) }
        changes.append { $0.status = .forceChangePassword }
        changes.append { $0.enabled = false }
        for change in changes {
            let changed = { var changed = a; change(&changed); return changed }()
            try await store.write { try await $0.updateUser(changed) }
            let refused = try await attempt(as: a)
            #expect(!refused.stored)
            #expect(try await !exists(refused.jti))
            #expect(try await attempt(as: changed).stored)  // as read after the change, the row stands
            try await store.write { try await $0.updateUser(a) }
        }
        // A change of the user under its lock, committed while the insert waits: the insert sees
        // the changed row (on PostgreSQL through its share lock; without it, the statement's
        // snapshot would still show the user enabled).
        let (locked, lockedSignal) = AsyncStream<Void>.makeStream()
        async let disabling: Void = store.write { tx in
            var current = try #require(try await tx.user(poolId: "p1", sub: "sub-a", forUpdate: true))
            lockedSignal.yield()
            try await Task.sleep(for: .milliseconds(300))
            current.enabled = false
            try await tx.updateUser(current)
            try await tx.revokeTokenFamilies(poolId: "p1", userSub: "sub-a", at: t0 + 1)
        }
        for await _ in locked { break }
        let racing = try await attempt(as: a)
        try await disabling
        #expect(!racing.stored)
        #expect(try await !exists(racing.jti))
    }

    static func signInWithoutLockUsingUpSession(_ store: SQLStore) async throws {
        let a = { var a = user("a"); a.status = .confirmed; return a }()
        try await seed(store, users: [a])
        @Sendable func session(_ hash: String) -> AuthSessionRecord {
            AuthSessionRecord(tokenHash: hash, poolId: "p1", clientId: "c1", userSub: "sub-a", challenge: "PASSWORD_VERIFIER",
                              state: "{}", createdAt: t0, expiresAt: t0 + 180)
        }
        @Sendable func family(_ jti: String) -> TokenFamilyRecord {
            TokenFamilyRecord(originJti: jti, poolId: "p1", clientId: "c1", userSub: "sub-a", refreshTokenHash: "h-\(jti)",
                              authTime: t0, createdAt: t0, expiresAt: t0 + 3600)
        }
        @Sendable func answer(_ hash: String, _ jti: String, as read: UserRecord) async throws -> (usedUp: Bool, stored: Bool) {
            try await store.writeSingleStatement {
                try await $0.insertTokenFamily(family(jti), ifSignInStands: read, usingUpSession: hash)
            }
        }
        func exists(_ jti: String) async throws -> Bool {
            try await store.read { try await $0.tokenFamily(originJti: jti) } != nil
        }
        func sessionExists(_ hash: String) async throws -> Bool {
            try await store.read { try await $0.authSession(tokenHash: hash) } != nil
        }
        try await store.write { try await $0.insertAuthSession(session("s1")) }
        let first = try await answer("s1", "f1", as: a)
        #expect(first == (usedUp: true, stored: true))
        #expect(try await exists("f1"))
        #expect(try await !sessionExists("s1"))
        // The same session again: gone, nothing stored.
        let replayed = try await answer("s1", "f2", as: a)
        #expect(replayed == (usedUp: false, stored: false))
        #expect(try await !exists("f2"))
        // The user changed since the read: the session is used up all the same, no family.
        try await store.write { try await $0.insertAuthSession(session("s2")) }
        let disabled = { var disabled = a; disabled.enabled = false; return disabled }()
        try await store.write { try await $0.updateUser(disabled) }
        let refused = try await answer("s2", "f3", as: a)
        #expect(refused == (usedUp: true, stored: false))
        #expect(try await !exists("f3"))
        #expect(try await !sessionExists("s2"))
        try await store.write { try await $0.updateUser(a) }
        // Parallel answers with one session: one uses it up and gets its family.
        try await store.write { try await $0.insertAuthSession(session("s3")) }
        let outcomes = try await withThrowingTaskGroup(of: (usedUp: Bool, stored: Bool).self) { group in
            for index in 0..<8 { group.addTask { try await answer("s3", "race-\(index)", as: a) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter(\.usedUp).count == 1)
        #expect(outcomes.filter(\.stored).count == 1)
        var stored = 0
        for index in 0..<8 where try await exists("race-\(index)") { stored += 1 }
        #expect(stored == 1)
    }

}


extension StoreConformance {
    static func identityPool(_ id: String) -> IdentityPoolRecord {
        IdentityPoolRecord(
            id: id, createdAt: t0, updatedAt: t0,
            settings: IdentityPool(
                identityPoolId: id, identityPoolName: "pool \(id)", allowUnauthenticatedIdentities: true,
                supportedLoginProviders: ["accounts.google.com": "app"], identityPoolTags: ["team": "web"]),
            roles: IdentityPoolRoles(
                roles: ["authenticated": "arn:aws:iam::1:role/a"],
                roleMappings: ["accounts.google.com": RoleMapping(type: .token, ambiguousRoleResolution: .deny)]),
            principalTags: ["accounts.google.com": PrincipalTagMapping(useDefaults: false, tags: ["t": "c"])])
    }

    static func identityPools(_ store: SQLStore) async throws {
        let login = { @Sendable (provider: String, subject: String, identity: String) in
            IdentityLoginRecord(poolId: "ip1", provider: provider, subject: subject, identityId: identity, linkedAt: t0)
        }
        try await store.write { tx in
            for id in ["ip2", "ip1", "ip3"] { try await tx.insertIdentityPool(identityPool(id)) }
            for id in ["ip1:a", "ip1:b", "ip1:c"] {
                try await tx.insertIdentity(IdentityRecord(identityId: id, poolId: "ip1", createdAt: t0, updatedAt: t0))
            }
            try await tx.insertIdentityLogin(login("accounts.google.com", "g1", "ip1:a"))
            try await tx.insertIdentityLogin(login("graph.facebook.com", "f1", "ip1:b"))
            try await tx.insertIdentityLogin(login("login.shop", "dev-b", "ip1:b"))
        }
        #expect(try await store.read { try await $0.identityPool(id: "ip1") } == identityPool("ip1"))
        await expectConflict(.identityPool) { try await store.write { try await $0.insertIdentityPool(identityPool("ip1")) } }
        let first = try await store.read { try await $0.identityPools(after: nil, limit: 2) }
        #expect(first.items.map(\.id) == ["ip1", "ip2"] && first.next == "ip2")
        #expect(try await store.read { try await $0.identityPools(after: "ip2", limit: 2) }.items.map(\.id) == ["ip3"])
        var edited = identityPool("ip2")
        edited.settings.allowUnauthenticatedIdentities = false
        let changed = edited
        #expect(try await store.write { try await $0.updateIdentityPool(changed) })
        #expect(try await store.read { try await $0.identityPool(id: "ip2") }?.settings.allowUnauthenticatedIdentities == false)
        #expect(try await store.write { try await $0.updateIdentityPool(identityPool("nope")) } == false)

        // One identity per login; a second link of it conflicts.
        await expectConflict(.identityLogin) {
            try await store.write { try await $0.insertIdentityLogin(login("accounts.google.com", "g1", "ip1:c")) }
        }
        #expect(try await store.read { try await $0.identityLogin(poolId: "ip1", provider: "accounts.google.com", subject: "g1") }?
            .identityId == "ip1:a")
        let b = try #require(try await store.read { try await $0.identity(id: "ip1:b", forUpdate: false) })
        #expect(b.logins.map(\.provider).sorted() == ["graph.facebook.com", "login.shop"] && b.isAuthenticated)
        let page = try await store.read { try await $0.identities(poolId: "ip1", after: nil, limit: 2, hidingDisabled: false) }
        #expect(page.items.map(\.identityId) == ["ip1:a", "ip1:b"] && page.next == "ip1:b")
        #expect(page.items[1].logins.count == 2 && page.items[0].logins.count == 1)

        // A merge moves the logins; the merged identity goes.
        try await store.write { tx in
            try await tx.moveIdentityLogins(from: "ip1:b", to: "ip1:a")
            #expect(try await tx.deleteIdentity(id: "ip1:b"))
        }
        #expect(try await store.read { try await $0.identity(id: "ip1:a", forUpdate: true) }?.logins.count == 3)
        #expect(try await store.read { try await $0.identity(id: "ip1:b", forUpdate: false) } == nil)
        try await store.write { tx in
            try await tx.deleteIdentityLogins(identityId: "ip1:a", provider: "login.shop", subject: "dev-b")
            try await tx.deleteIdentityLogins(identityId: "ip1:a", provider: "graph.facebook.com", subject: nil)
            try await tx.updateIdentity(id: "ip1:c", at: t0 + 5, disabled: true)
        }
        #expect(try await store.read { try await $0.identity(id: "ip1:a", forUpdate: false) }?.logins.map(\.provider)
            == ["accounts.google.com"])
        let c = try await store.read { try await $0.identity(id: "ip1:c", forUpdate: false) }
        #expect(c?.disabled == true && c?.updatedAt == t0 + 5)
        #expect(try await store.read { try await $0.identities(poolId: "ip1", after: nil, limit: 10, hidingDisabled: true) }
            .items.map(\.identityId) == ["ip1:a"])

        // Deleting the pool deletes its identities and their logins.
        #expect(try await store.write { try await $0.deleteIdentityPool(id: "ip1") })
        #expect(try await store.write { try await $0.deleteIdentityPool(id: "ip1") } == false)
        #expect(try await store.read { try await $0.identity(id: "ip1:a", forUpdate: false) } == nil)
        #expect(try await store.read { try await $0.identityLogin(poolId: "ip1", provider: "accounts.google.com", subject: "g1") }
            == nil)
        do {
            try await store.write { tx in
                try await tx.insertIdentity(IdentityRecord(identityId: "gone:x", poolId: "ip1", createdAt: t0, updatedAt: t0))
            }
            Issue.record("an identity of a deleted pool was stored")
        } catch let error as StoreError {
            #expect(error == .referenceMissing)
        }
    }

    static func parallelIdentityLinks(_ store: SQLStore) async throws {
        try await store.write { try await $0.insertIdentityPool(identityPool("ip1")) }
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    do {
                        try await store.write { tx in
                            let id = "ip1:\(index)"
                            try await tx.insertIdentity(IdentityRecord(identityId: id, poolId: "ip1", createdAt: t0, updatedAt: t0))
                            try await tx.insertIdentityLogin(IdentityLoginRecord(
                                poolId: "ip1", provider: "accounts.google.com", subject: "same", identityId: id, linkedAt: t0))
                        }
                        return true
                    } catch StoreError.conflict(.identityLogin) {
                        return false
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        let identities = try await store.read { try await $0.identities(poolId: "ip1", after: nil, limit: 20, hidingDisabled: false) }
        #expect(identities.items.count == 1, "the losers' identities rolled back with their logins")
    }
}


extension StoreConformance {
    static func cimdPolicy(_ id: String, pool: String = "p1") -> CIMDPolicyRecord {
        CIMDPolicyRecord(
            poolId: pool, policyId: id, clientId: "c1", name: "policy \(id)", cacheDuration: 86_400,
            urlPatterns: ["https://*.example.com/cimd.json", "https://example.org/*"], createdAt: t0, updatedAt: t0)
    }

    static func cimdPolicies(_ store: SQLStore) async throws {
        try await seed(store)
        try await store.write { tx in
            for id in ["b2", "a1", "c3"] { try await tx.insertCIMDPolicy(cimdPolicy(id)) }
        }
        #expect(try await store.read { try await $0.cimdPolicy(id: "a1") } == cimdPolicy("a1"))
        #expect(try await store.read { try await $0.cimdPolicyCount(poolId: "p1") } == 3)
        await expectConflict(.cimdPolicy) { try await store.write { try await $0.insertCIMDPolicy(cimdPolicy("a1")) } }
        let first = try await store.read { try await $0.cimdPolicies(poolId: "p1", after: nil, limit: 2) }
        #expect(first.items.map(\.policyId) == ["a1", "b2"] && first.next == "b2")
        #expect(try await store.read { try await $0.cimdPolicies(poolId: "p1", after: "b2", limit: 2) }.items.map(\.policyId) == ["c3"])
        var edited = cimdPolicy("b2")
        edited.name = "renamed"
        edited.cacheDuration = 172_800
        edited.urlPatterns = ["https://example.net/x"]
        edited.updatedAt = t0 + 60
        let changed = edited
        #expect(try await store.write { try await $0.updateCIMDPolicy(changed) })
        #expect(try await store.read { try await $0.cimdPolicy(id: "b2") } == changed)
        #expect(try await store.write { try await $0.updateCIMDPolicy(cimdPolicy("nope")) } == false)

        // URLs: an upsert replaces the cached document; pages by URL.
        let url = { @Sendable (policy: String, url: String, document: String?) in
            ClientMetadataURLRecord(
                policyId: policy, url: url, cachedAt: document.map { _ in t0 }, expiresAt: document.map { _ in t0 + 86_400 },
                document: document)
        }
        try await store.write { tx in
            try await tx.saveClientMetadataURL(url("a1", "https://y.example.com/cimd.json", "{\"v\":1}"))
            try await tx.saveClientMetadataURL(url("a1", "https://x.example.com/cimd.json", "{}"))
            try await tx.saveClientMetadataURL(url("a1", "https://z.example.com/cimd.json", "{}"))
            try await tx.saveClientMetadataURL(url("a1", "https://y.example.com/cimd.json", nil))
        }
        #expect(try await store.read { try await $0.clientMetadataURL(policyId: "a1", url: "https://y.example.com/cimd.json") }
            == url("a1", "https://y.example.com/cimd.json", nil))
        let urls = try await store.read { try await $0.clientMetadataURLs(policyId: "a1", after: nil, limit: 2) }
        #expect(urls.items.map(\.url) == ["https://x.example.com/cimd.json", "https://y.example.com/cimd.json"])
        #expect(urls.items[0].expiresAt == t0 + 86_400 && urls.next == "https://y.example.com/cimd.json")
        #expect(try await store.read { try await $0.clientMetadataURLs(policyId: "a1", after: urls.next, limit: 2) }
            .items.map(\.url) == ["https://z.example.com/cimd.json"])
        #expect(try await store.write { try await $0.deleteClientMetadataURL(policyId: "a1", url: "https://z.example.com/cimd.json") })
        #expect(try await store.write { try await $0.deleteClientMetadataURL(policyId: "a1", url: "https://z.example.com/cimd.json") }
            == false)

        // A policy's deletion takes its URLs; a pool's, its policies.
        #expect(try await store.write { try await $0.deleteCIMDPolicy(id: "a1") })
        #expect(try await store.write { try await $0.deleteCIMDPolicy(id: "a1") } == false)
        #expect(try await store.read { try await $0.clientMetadataURLs(policyId: "a1", after: nil, limit: 10) }.items.isEmpty)
        do {
            try await store.write { try await $0.saveClientMetadataURL(url("a1", "https://x.example.com/cimd.json", "{}")) }
            Issue.record("a URL of a deleted policy was stored")
        } catch let error as StoreError {
            #expect(error == .referenceMissing)
        }
        try await store.write { tx in
            try await tx.saveClientMetadataURL(url("b2", "https://example.net/x", "{}"))
            try await tx.deletePool(id: "p1")
        }
        #expect(try await store.read { try await $0.cimdPolicy(id: "b2") } == nil)
        #expect(try await store.read { try await $0.clientMetadataURLs(policyId: "b2", after: nil, limit: 10) }.items.isEmpty)
        do {
            try await store.write { try await $0.insertCIMDPolicy(cimdPolicy("d4")) }
            Issue.record("a policy of a deleted pool was stored")
        } catch let error as StoreError {
            #expect(error == .referenceMissing)
        }
    }
}
