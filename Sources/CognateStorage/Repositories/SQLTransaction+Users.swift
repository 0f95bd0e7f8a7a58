import Foundation
import CognateCore
import CognateProtocol


extension SQLTransaction: UserRepository {
    func insertUser(_ user: UserRecord) async throws {
        let number = try await userNumbers.next(in: session)
        let row: SQLStatement = """
            INSERT INTO users (number, pool_id, sub, username, username_key, status, enabled, created_at, updated_at, \
            password_salt, password_verifier, password_updated_at) VALUES (\(bind: number), \(bind: user.poolId), \(bind: user.sub), \
            \(bind: user.username), \(bind: user.usernameKey), \(bind: user.status.rawValue), \(bind: user.enabled ? 1 : 0), \
            \(bind: Columns.time(user.createdAt)), \(bind: Columns.time(user.updatedAt)), \
            \(bind: user.password.map { Columns.hex($0.salt) }), \(bind: user.password.map { Columns.hex($0.verifier) }), \
            \(bind: user.passwordUpdatedAt.map(Columns.time)))
            """
        try await holdInsert(row, into: "users", conflict: .username)
        insertedUsers.record(number, poolId: user.poolId, sub: user.sub)
        if let attributes = attributesInsert(of: user) { try await holdInsert(attributes, into: "user_attributes") }
    }

    func user(poolId: String, usernameKey: String, forUpdate: Bool) async throws -> UserRecord? {
        try await firstUser(Self.lookUp(poolId: poolId, usernameKey: usernameKey), forUpdate)
    }

    func user(poolId: String, sub: String, forUpdate: Bool) async throws -> UserRecord? {
        try await firstUser(Self.lookUp(poolId: poolId, sub: sub), forUpdate)
    }

    /// The row's UPDATE runs whatever changed: on PostgreSQL it is what tells other nodes that
    /// the user changed (migration 023; attributes have no trigger of their own).
    func updateUser(_ user: UserRecord) async throws {
        try await run(
            """
            UPDATE users SET status = \(bind: user.status.rawValue), enabled = \(bind: user.enabled ? 1 : 0), \
            updated_at = \(bind: Columns.time(user.updatedAt)), \
            password_salt = \(bind: user.password.map { Columns.hex($0.salt) }), \
            password_verifier = \(bind: user.password.map { Columns.hex($0.verifier) }), \
            password_updated_at = \(bind: user.passwordUpdatedAt.map(Columns.time)) \
            WHERE pool_id = \(bind: user.poolId) AND sub = \(bind: user.sub)
            """, changing: .user(poolId: user.poolId, sub: user.sub))
        try await run(
            "DELETE FROM user_attributes WHERE user_number = " + userNumber(user.poolId, user.sub),
            changing: .user(poolId: user.poolId, sub: user.sub))
        if let attributes = attributesInsert(of: user) { try await run(attributes) }
    }

    func deleteUser(poolId: String, sub: String) async throws {
        try await run(
            "DELETE FROM users WHERE pool_id = \(bind: poolId) AND sub = \(bind: sub)", changing: .user(poolId: poolId, sub: sub))
    }

    func user(poolId: String, signInName: String, forUpdate: Bool) async throws -> UserRecord? {
        try await firstUser(Self.lookUp(poolId: poolId, signInName: signInName), forUpdate)
    }

    func userForSignIn(poolId: String, usernameKey: String) async throws -> (user: UserRecord, standing: SignInStanding)? {
        try await userWithStanding(Self.lookUp(poolId: poolId, usernameKey: usernameKey))
    }

    func userForSignIn(poolId: String, signInName: String) async throws -> (user: UserRecord, standing: SignInStanding)? {
        try await userWithStanding(Self.lookUp(poolId: poolId, signInName: signInName))
    }

    func userForSignIn(poolId: String, sub: String) async throws -> (user: UserRecord, standing: SignInStanding)? {
        try await userWithStanding(Self.lookUp(poolId: poolId, sub: sub))
    }

    /// Where a lookup of one user finds it: the tables, which name the user `u`, and the condition.
    private typealias Lookup = (source: SQLStatement, condition: SQLStatement)

    private static func lookUp(poolId: String, usernameKey: String) -> Lookup {
        ("users u", "u.pool_id = \(bind: poolId) AND u.username_key = \(bind: usernameKey)")
    }

    private static func lookUp(poolId: String, sub: String) -> Lookup {
        ("users u", "u.pool_id = \(bind: poolId) AND u.sub = \(bind: sub)")
    }

    private static func lookUp(poolId: String, signInName: String) -> Lookup {
        ("sign_in_names n JOIN users u ON u.number = n.user_number",
         "n.pool_id = \(bind: poolId) AND n.name_key = \(bind: signInName)")
    }

    /// The user `lookup` finds, with its failure record and its groups, in one statement.
    private func userWithStanding(_ lookup: Lookup) async throws -> (user: UserRecord, standing: SignInStanding)? {
        try await userRows(
            columns: Self.standingSelectColumns, from: lookup.source + " \(unsafeRaw: Self.standingJoin)",
            where: lookup.condition
        ).map { ($0.user, try Self.standing(in: $0.rows)) }
    }

    /// The one user `lookup` finds, read with its attributes in a single statement; locked if asked.
    private func firstUser(_ lookup: Lookup, _ forUpdate: Bool) async throws -> UserRecord? {
        let locking: SQLStatement = forUpdate ? "\(unsafeRaw: flavor.forUpdate(of: "u"))" : ""
        return try await firstUserRow(columns: "", from: lookup.source, where: lookup.condition + locking)?.user
    }

    /// The first user of `source` (which names it `u`, and may join more tables whose
    /// `columns` it adds to the select list) with its attributes, and its row for those other
    /// columns.
    func firstUserRow(columns: String, from source: SQLStatement, where condition: SQLStatement)
        async throws -> (user: UserRecord, row: SQLRow)?
    {
        try await userRows(columns: columns, from: source, where: condition).map { ($0.user, $0.rows[0]) }
    }

    /// The user of `source`'s first row with its attributes, and all the rows (`source` may
    /// join a table with several rows per user). The attributes come in each row as one JSON
    /// object, not a row per attribute: those repeated every other column, which the database
    /// sent and the node decoded each time.
    func userRows(columns: String, from source: SQLStatement, where condition: SQLStatement)
        async throws -> (user: UserRecord, rows: [SQLRow])?
    {
        let attributes = flavor.jsonObjectAggregate("a.name", "a.value")
        let rows = try await all(
            """
            SELECT u.*, (SELECT \(unsafeRaw: attributes) FROM user_attributes a \
            WHERE a.user_number = u.number) AS attributes\(unsafeRaw: columns) FROM 
            """ + source + " WHERE " + condition)
        guard let row = rows.first else { return nil }
        let stored = try row.optionalString("attributes").map(JSONStringMap.decode)
        return (try Self.user(from: row, attributes: stored ?? [:]), rows)
    }

    func setSignInNames(poolId: String, sub: String, names: [String]) async throws {
        let current = Set(try await all(
            "SELECT name_key FROM sign_in_names WHERE user_number = " + userNumber(poolId, sub)
        ).map { try $0.string("name_key") })
        let wanted = Set(names)
        for name in current.subtracting(wanted) {
            try await run("DELETE FROM sign_in_names WHERE pool_id = \(bind: poolId) AND name_key = \(bind: name)")
        }
        try await addSignInNames(poolId: poolId, sub: sub, names: wanted.subtracting(current).sorted())
    }

    func addSignInNames(poolId: String, sub: String, names: [String]) async throws {
        for name in names {
            try await insert(
                "INSERT INTO sign_in_names (pool_id, name_key, user_number) VALUES (\(bind: poolId), \(bind: name), "
                    + userNumber(poolId, sub) + ")",
                conflict: .signInName)
        }
    }

    func listUsers(poolId: String, filter: UserFilter?, after: String?, limit: Int) async throws -> Page<UserRecord> {
        var query = Self.usersMatching(filter, poolId: poolId)
        if let after { query += " AND u.username_key > \(bind: after)" }
        query += " ORDER BY u.username_key LIMIT \(bind: limit + 1)"
        let rows = try await all(query)
        let users = try await withAttributes(rows)
        return Self.page(users, limit: limit, key: \.usernameKey)
    }

    func countUsers(poolId: String) async throws -> Int {
        try await first("SELECT COUNT(*) AS n FROM users WHERE pool_id = \(bind: poolId)")?.int("n") ?? 0
    }

    // MARK: - Helpers

    /// The users (`u`) of `poolId` a ListUsers filter selects, as a SELECT to which conditions on
    /// `u` can be added. An attribute filter starts from the index of folded values and looks
    /// each user it finds up by key (CROSS JOIN fixes that order on SQLite, whose planner would
    /// otherwise walk every user of the pool in username order to spare the sort): its cost is
    /// the users it matches, not the pool's size. So does a username filter, through the index
    /// of username keys, and a `sub` filter, through the unique index of `(pool_id, sub)`.
    static func usersMatching(_ filter: UserFilter?, poolId: String) -> SQLStatement {
        guard let filter else { return "SELECT u.* FROM users u WHERE u.pool_id = \(bind: poolId)" }
        func compare(_ column: String, with value: String) -> SQLStatement {
            switch filter.match {
            case .equals: return "\(unsafeRaw: column) = \(bind: value)"
            case .prefix:
                // A range on a binary-collated column: index-friendly, no LIKE escaping.
                return "\(unsafeRaw: column) >= \(bind: value) AND \(unsafeRaw: column) < \(bind: value + "\u{10FFFF}")"
            }
        }
        func compare(_ column: String) -> SQLStatement {
            compare(column, with: filter.caseInsensitive ? filter.value.lowercased() : filter.value)
        }
        let condition: SQLStatement
        switch filter.field {
        // The key finds the usernames in the index; the username itself decides.
        case .username(let key): condition = compare("u.username_key", with: key) + " AND " + compare("u.username")
        case .sub: condition = compare("u.sub")
        case .status: condition = compare("u.status")
        case .enabled:
            switch filter.value {
            case "Enabled": condition = "u.enabled = 1"
            case "Disabled": condition = "u.enabled = 0"
            case "*": condition = "1 = 1"
            default: condition = "1 = 0"
            }
        case .attribute(let name):
            // Only folded values are indexed: every attribute a filter can name is searched
            // case-insensitively (UserFilterParser).
            return """
                SELECT u.* FROM user_attributes a CROSS JOIN users u WHERE a.pool_id = \(bind: poolId) \
                AND a.name = \(bind: name) AND \(compare(filter.caseInsensitive ? "a.value_folded" : "a.value")) \
                AND u.number = a.user_number
                """
        }
        return "SELECT u.* FROM users u WHERE u.pool_id = \(bind: poolId) AND " + condition
    }

    /// The insert of a user's attributes; nil when it has none.
    private func attributesInsert(of user: UserRecord) -> SQLStatement? {
        guard !user.attributes.isEmpty else { return nil }
        let number = userNumber(user.poolId, user.sub)
        let rows: [SQLStatement] = user.attributes.sorted { $0.key < $1.key }.map { name, value in
            "(" + number + ", \(bind: user.poolId), \(bind: name), \(bind: value), \(bind: value.lowercased()))"
        }
        return "INSERT INTO user_attributes (user_number, pool_id, name, value, value_folded) VALUES "
            + SQLStatement.joined(rows, separator: ", ")
    }

    /// The internal number of the user `sub` names in `poolId` (Migration022UserNumbers), as an
    /// SQL expression: the number itself for a user this write inserted, else its lookup.
    func userNumber(_ poolId: String, _ sub: String) -> SQLStatement {
        if let number = insertedUsers.number(poolId: poolId, sub: sub) { return "\(bind: number)" }
        return Self.userNumberLookup(poolId, sub)
    }

    /// The number of the user `sub` names in `poolId`, looked up: -1, which no user has, when
    /// there is none, so that a row written for a missing user fails its foreign key
    /// (`StoreError.referenceMissing`) and a lookup by it finds nothing.
    static func userNumberLookup(_ poolId: String, _ sub: String) -> SQLStatement {
        "COALESCE((SELECT number FROM users WHERE pool_id = \(bind: poolId) AND sub = \(bind: sub)), -1)"
    }

    /// Builds records from user rows, loading all their attributes in one query.
    func withAttributes(_ rows: [SQLRow]) async throws -> [UserRecord] {
        guard !rows.isEmpty else { return [] }
        let numbers = try rows.map { try $0.int("number") }
        var attributes: [Int: [String: String]] = [:]
        let attributeRows = try await all(
            "SELECT user_number, name, value FROM user_attributes WHERE user_number IN (\(binds: numbers))")
        for row in attributeRows {
            attributes[try row.int("user_number"), default: [:]][try row.string("name")] = try row.string("value")
        }
        return try rows.map { row in try Self.user(from: row, attributes: attributes[try row.int("number")] ?? [:]) }
    }

    static func user(from row: SQLRow, attributes: [String: String]) throws -> UserRecord {
        let password: StoredPassword? =
            if let salt = try row.optionalString("password_salt"), let verifier = try row.optionalString("password_verifier") {
                StoredPassword(salt: try Columns.bytes(salt), verifier: try Columns.bytes(verifier))
            } else { nil }
        return UserRecord(
            poolId: try row.string("pool_id"), sub: try row.string("sub"), username: try row.string("username"),
            usernameKey: try row.string("username_key"), status: UserStatusType(rawValue: try row.string("status")),
            enabled: try row.int("enabled") != 0, createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"),
            password: password, passwordUpdatedAt: try row.optionalDate("password_updated_at"), attributes: attributes)
    }
}

extension SQLTransaction {
    func passwordHistory(poolId: String, sub: String, limit: Int) async throws -> [StoredPassword] {
        try await all(
            """
            SELECT salt, verifier FROM password_history WHERE pool_id = \(bind: poolId) AND user_sub = \(bind: sub) \
            ORDER BY id DESC LIMIT \(bind: limit)
            """
        ).map { StoredPassword(salt: try Columns.bytes($0.string("salt")), verifier: try Columns.bytes($0.string("verifier"))) }
    }

    func appendPasswordHistory(poolId: String, sub: String, password: StoredPassword, at date: Date, keep: Int) async throws {
        try await run(
            """
            INSERT INTO password_history (pool_id, user_sub, salt, verifier, created_at) VALUES (\(bind: poolId), \(bind: sub), \
            \(bind: Columns.hex(password.salt)), \(bind: Columns.hex(password.verifier)), \(bind: Columns.time(date)))
            """)
        try await run(
            """
            DELETE FROM password_history WHERE pool_id = \(bind: poolId) AND user_sub = \(bind: sub) AND id NOT IN \
            (SELECT id FROM password_history WHERE pool_id = \(bind: poolId) AND user_sub = \(bind: sub) \
            ORDER BY id DESC LIMIT \(bind: keep))
            """)
    }
}
