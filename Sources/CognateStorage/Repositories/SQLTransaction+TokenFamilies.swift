import Foundation
import CognateCore


extension SQLTransaction: TokenFamilyRepository {
    func insertTokenFamily(_ family: TokenFamilyRecord) async throws {
        try await insert(
            "INSERT INTO token_families \(unsafeRaw: Self.insertedColumns) VALUES (\(Self.values(of: family)))",
            conflict: .tokenFamily)
    }

    func insertTokenFamily(_ family: TokenFamilyRecord, ifSignInStands user: UserRecord) async throws -> Bool {
        try await !inserting { try await all(Self.conditionalInsert(family, ifSignInStands: user, flavor: flavor)) }.isEmpty
    }

    func insertTokenFamily(_ family: TokenFamilyRecord, ifSignInStands user: UserRecord,
                           usingUpSession sessionTokenHash: String) async throws -> (usedUp: Bool, stored: Bool) {
        switch flavor {
        case .postgres:
            // Data-modifying WITH clauses run once each on one snapshot; the insert sees the
            // delete's outcome only through its RETURNING rows. A concurrent answer with the
            // same session waits for the row and finds it gone.
            let row = try await inserting {
                try await first(
                    """
                    WITH used AS (DELETE FROM auth_sessions WHERE token_hash = \(bind: sessionTokenHash) RETURNING 1), \
                    stored AS (\(Self.conditionalInsert(family, ifSignInStands: user, flavor: flavor, requiring: "EXISTS (SELECT 1 FROM used)"))) \
                    SELECT (SELECT count(*) FROM used) AS used_up, (SELECT count(*) FROM stored) AS stored
                    """)
            }
            guard let row else { throw SQLError("The session's use and the family's insert returned no row.") }
            return (try row.int("used_up") > 0, try row.int("stored") > 0)
        case .sqlite:
            return try await session.stepsOfOneStatement {
                guard try await consumeAuthSession(tokenHash: sessionTokenHash) else { return (false, false) }
                return (true, try await insertTokenFamily(family, ifSignInStands: user))
            }
        }
    }

    /// A new family's insert, which a unique key refuses: `StoreError.conflict(.tokenFamily)`.
    private func inserting<Result>(_ insert: () async throws -> Result) async throws -> Result {
        do {
            return try await insert()
        } catch SQLConstraintViolation.unique {
            throw StoreError.conflict(.tokenFamily)
        }
    }

    /// `family`'s insert, of one row only if `user`'s row is as read (password, status, enabled
    /// flag), the user has no failure record and `requiring` holds; where the database has row
    /// locks, under a share lock of the user's row. Returns the family's `origin_jti`.
    private static func conditionalInsert(_ family: TokenFamilyRecord, ifSignInStands user: UserRecord,
                                          flavor: SQLFlavor, requiring condition: String? = nil) -> SQLStatement {
        """
        INSERT INTO token_families \(unsafeRaw: insertedColumns) SELECT \(values(of: family)) FROM users u \
        WHERE u.pool_id = \(bind: user.poolId) AND u.sub = \(bind: user.sub) \
        AND u.password_salt = \(bind: user.password.map { Columns.hex($0.salt) }) \
        AND u.password_verifier = \(bind: user.password.map { Columns.hex($0.verifier) }) \
        AND u.status = \(bind: user.status.rawValue) AND u.enabled = \(bind: user.enabled ? 1 : 0) \
        AND NOT EXISTS (SELECT 1 FROM sign_in_failures s WHERE s.pool_id = u.pool_id AND s.subject = u.sub)\
        \(unsafeRaw: condition.map { " AND " + $0 } ?? "")\(unsafeRaw: flavor.forShare(of: "u")) RETURNING origin_jti
        """
    }

    /// The columns a new family sets, in the order of ``values(of:)``.
    private static let insertedColumns = """
        (origin_jti, pool_id, client_id, user_sub, refresh_token_hash, auth_time, created_at, expires_at, revoked_at, \
        device_key, scopes)
        """

    /// The values of `insertedColumns` for `family`.
    private static func values(of family: TokenFamilyRecord) -> SQLStatement {
        """
        \(bind: family.originJti), \(bind: family.poolId), \(bind: family.clientId), \(bind: family.userSub), \
        \(bind: family.refreshTokenHash), \(bind: Columns.time(family.authTime)), \(bind: Columns.time(family.createdAt)), \
        \(bind: Columns.time(family.expiresAt)), \(bind: family.revokedAt.map(Columns.time)), \(bind: family.deviceKey), \
        \(bind: family.scopes?.joined(separator: " "))
        """
    }

    func tokenFamily(refreshTokenHash: String) async throws -> TokenFamilyRecord? {
        if let current = try await first("SELECT * FROM token_families WHERE refresh_token_hash = \(bind: refreshTokenHash)") {
            return try Self.family(from: current)
        }
        return try await first("SELECT * FROM token_families WHERE previous_refresh_token_hash = \(bind: refreshTokenHash)")
            .map { try Self.family(from: $0) }
    }

    /// One statement: the family, its user, and the user's groups (a row per group).
    func tokenFamilyWithUser(refreshTokenHash: String) async throws
        -> (family: TokenFamilyRecord, user: UserRecord?, groups: [GroupRecord])?
    {
        if let (user, rows) = try await userRows(
            columns: Self.familyAndGroupColumns,
            from: "token_families f JOIN users u ON u.pool_id = f.pool_id AND u.sub = f.user_sub \(unsafeRaw: Self.groupJoin)",
            where: "f.refresh_token_hash = \(bind: refreshTokenHash)")
        {
            return (try Self.family(from: rows[0], prefix: "family_"), user, try Self.groups(in: rows))
        }
        // A previous refresh token (rotation's grace period), or a family without its user.
        guard let family = try await tokenFamily(refreshTokenHash: refreshTokenHash) else { return nil }
        guard let user = try await user(poolId: family.poolId, sub: family.userSub) else { return (family, nil, []) }
        return (family, user, try await groups(ofUser: user.sub, poolId: user.poolId))
    }

    func rotateRefreshToken(originJti: String, presentedHash: String, newHash: String, previousValidUntil: Date) async throws
        -> Bool
    {
        try await first(
            """
            UPDATE token_families SET refresh_token_hash = \(bind: newHash), \
            previous_refresh_token_hash = CASE WHEN refresh_token_hash = \(bind: presentedHash) THEN \(bind: presentedHash) \
            ELSE previous_refresh_token_hash END, \
            previous_valid_until = CASE WHEN refresh_token_hash = \(bind: presentedHash) \
            THEN \(bind: Columns.time(previousValidUntil)) ELSE previous_valid_until END \
            WHERE origin_jti = \(bind: originJti) AND (refresh_token_hash = \(bind: presentedHash) \
            OR previous_refresh_token_hash = \(bind: presentedHash)) RETURNING origin_jti
            """, changing: .nothingCached) != nil
    }

    func tokenFamily(originJti: String) async throws -> TokenFamilyRecord? {
        try await first("SELECT * FROM token_families WHERE origin_jti = \(bind: originJti)").map { try Self.family(from: $0) }
    }

    func user(poolId: String, sub: String, withTokenFamily originJti: String) async throws
        -> (user: UserRecord, family: TokenFamilyStanding?)?
    {
        guard let (user, row) = try await firstUserRow(
            columns: ", f.origin_jti AS family_origin_jti, f.revoked_at AS family_revoked_at, f.device_key AS family_device_key",
            from: "users u LEFT JOIN token_families f ON f.origin_jti = \(bind: originJti) AND f.pool_id = u.pool_id AND f.user_sub = u.sub",
            where: "u.pool_id = \(bind: poolId) AND u.sub = \(bind: sub)")
        else { return nil }
        guard try row.optionalString("family_origin_jti") != nil else { return (user, nil) }
        return (user, TokenFamilyStanding(
            revokedAt: try row.optionalDate("family_revoked_at"), deviceKey: try row.optionalString("family_device_key")))
    }

    func revokeTokenFamily(originJti: String, at date: Date) async throws {
        try await run(
            """
            UPDATE token_families SET revoked_at = \(bind: Columns.time(date)) \
            WHERE origin_jti = \(bind: originJti) AND revoked_at IS NULL
            """, changing: .family(originJti: originJti))
    }

    func setTokenFamilyScopes(originJti: String, scopes: [String]) async throws {
        try await run(
            "UPDATE token_families SET scopes = \(bind: scopes.joined(separator: " ")) WHERE origin_jti = \(bind: originJti)",
            changing: .nothingCached)
    }

    func revokeTokenFamilies(poolId: String, userSub: String, at date: Date) async throws {
        try await run(
            """
            UPDATE token_families SET revoked_at = \(bind: Columns.time(date)) \
            WHERE pool_id = \(bind: poolId) AND user_sub = \(bind: userSub) AND revoked_at IS NULL
            """, changing: .user(poolId: poolId, sub: userSub))
    }

    /// The columns ``family(from:prefix:)`` reads.
    static let familyColumns = [
        "origin_jti", "pool_id", "client_id", "user_sub", "refresh_token_hash", "auth_time", "created_at", "expires_at",
        "revoked_at", "device_key", "scopes", "previous_refresh_token_hash", "previous_valid_until",
    ]

    /// The select list a refresh adds to its user's: the family's columns (`family_…`) and the
    /// groups' (`group_…`).
    private static let familyAndGroupColumns = familyColumns.map { ", f.\($0) AS family_\($0)" }.joined()
        + groupSelectColumns

    /// The family in `row`, whose column names start with `prefix`.
    static func family(from row: SQLRow, prefix: String = "") throws -> TokenFamilyRecord {
        TokenFamilyRecord(
            originJti: try row.string(prefix + "origin_jti"), poolId: try row.string(prefix + "pool_id"),
            clientId: try row.string(prefix + "client_id"), userSub: try row.string(prefix + "user_sub"),
            refreshTokenHash: try row.optionalString(prefix + "refresh_token_hash"),
            authTime: try row.date(prefix + "auth_time"), createdAt: try row.date(prefix + "created_at"),
            expiresAt: try row.date(prefix + "expires_at"), revokedAt: try row.optionalDate(prefix + "revoked_at"),
            deviceKey: try row.optionalString(prefix + "device_key"),
            scopes: try row.optionalString(prefix + "scopes").map { $0.split(separator: " ").map(String.init) },
            previousRefreshTokenHash: try row.optionalString(prefix + "previous_refresh_token_hash"),
            previousValidUntil: try row.optionalDate(prefix + "previous_valid_until"))
    }
}
