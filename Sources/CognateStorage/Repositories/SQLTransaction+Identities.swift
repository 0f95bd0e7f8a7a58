import CognateCore
import Foundation

extension SQLTransaction: IdentityRepository {
    func insertIdentity(_ identity: IdentityRecord) async throws {
        try await run(
            """
            INSERT INTO identities (identity_id, pool_id, disabled, created_at, updated_at) VALUES (\
            \(bind: identity.identityId), \(bind: identity.poolId), \(bind: identity.disabled ? 1 : 0), \
            \(bind: Columns.time(identity.createdAt)), \(bind: Columns.time(identity.updatedAt)))
            """)
    }

    func identity(id: String, forUpdate: Bool) async throws -> IdentityRecord? {
        let locking = forUpdate ? flavor.forUpdate(of: "i") : ""
        guard let row = try await first("SELECT * FROM identities i WHERE identity_id = \(bind: id)\(unsafeRaw: locking)")
        else { return nil }
        var identity = try Self.identity(from: row)
        identity.logins = try await all(
            "SELECT * FROM identity_logins WHERE identity_id = \(bind: id) ORDER BY linked_at, provider, subject"
        ).map(Self.identityLogin(from:))
        return identity
    }

    func identities(poolId: String, after: String?, limit: Int, hidingDisabled: Bool) async throws -> Page<IdentityRecord> {
        let hiding: SQLStatement = hidingDisabled ? " AND disabled = 0" : ""
        let rows = try await all(
            """
            SELECT * FROM identities WHERE pool_id = \(bind: poolId) AND identity_id > \(bind: after ?? "")\(hiding) \
            ORDER BY identity_id LIMIT \(bind: limit + 1)
            """)
        var page = Self.page(try rows.map(Self.identity(from:)), limit: limit, key: \.identityId)
        guard let first = page.items.first?.identityId, let last = page.items.last?.identityId else { return page }
        let logins = try await all(
            """
            SELECT l.* FROM identity_logins l JOIN identities i ON i.identity_id = l.identity_id \
            WHERE i.pool_id = \(bind: poolId) AND l.identity_id >= \(bind: first) AND l.identity_id <= \(bind: last) \
            ORDER BY l.linked_at, l.provider, l.subject
            """).map(Self.identityLogin(from:))
        let byIdentity = Dictionary(grouping: logins, by: \.identityId)
        for index in page.items.indices { page.items[index].logins = byIdentity[page.items[index].identityId] ?? [] }
        return page
    }

    func updateIdentity(id: String, at date: Date, disabled: Bool) async throws {
        try await run(
            """
            UPDATE identities SET updated_at = \(bind: Columns.time(date)), disabled = \(bind: disabled ? 1 : 0) \
            WHERE identity_id = \(bind: id)
            """)
    }

    @discardableResult
    func deleteIdentity(id: String) async throws -> Bool {
        !(try await all("DELETE FROM identities WHERE identity_id = \(bind: id) RETURNING identity_id").isEmpty)
    }

    func insertIdentityLogin(_ login: IdentityLoginRecord) async throws {
        try await insert(
            """
            INSERT INTO identity_logins (pool_id, provider, subject, identity_id, linked_at) VALUES (\
            \(bind: login.poolId), \(bind: login.provider), \(bind: login.subject), \(bind: login.identityId), \
            \(bind: Columns.time(login.linkedAt)))
            """, conflict: .identityLogin)
    }

    func identityLogin(poolId: String, provider: String, subject: String) async throws -> IdentityLoginRecord? {
        try await first(
            """
            SELECT * FROM identity_logins WHERE pool_id = \(bind: poolId) AND provider = \(bind: provider) \
            AND subject = \(bind: subject)
            """).map(Self.identityLogin(from:))
    }

    func moveIdentityLogins(from source: String, to destination: String) async throws {
        try await run("UPDATE identity_logins SET identity_id = \(bind: destination) WHERE identity_id = \(bind: source)")
    }

    func deleteIdentityLogins(identityId: String, provider: String, subject: String?) async throws {
        let bySubject: SQLStatement = subject.map { " AND subject = \(bind: $0)" } ?? ""
        try await run(
            "DELETE FROM identity_logins WHERE identity_id = \(bind: identityId) AND provider = \(bind: provider)\(bySubject)")
    }

    static func identity(from row: SQLRow) throws -> IdentityRecord {
        IdentityRecord(
            identityId: try row.string("identity_id"), poolId: try row.string("pool_id"),
            createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"),
            disabled: try row.int64("disabled") != 0)
    }

    static func identityLogin(from row: SQLRow) throws -> IdentityLoginRecord {
        IdentityLoginRecord(
            poolId: try row.string("pool_id"), provider: try row.string("provider"), subject: try row.string("subject"),
            identityId: try row.string("identity_id"), linkedAt: try row.date("linked_at"))
    }
}
