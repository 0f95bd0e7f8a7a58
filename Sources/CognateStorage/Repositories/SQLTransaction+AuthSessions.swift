import CognateCore
import Foundation


extension SQLTransaction: AuthSessionRepository {
    func insertAuthSession(_ session: AuthSessionRecord) async throws {
        try await insert(
            """
            INSERT INTO auth_sessions (token_hash, pool_id, client_id, user_sub, challenge, state, created_at, expires_at) \
            VALUES (\(bind: session.tokenHash), \(bind: session.poolId), \(bind: session.clientId), \(bind: session.userSub), \
            \(bind: session.challenge), \(bind: session.state), \(bind: Columns.time(session.createdAt)), \
            \(bind: Columns.time(session.expiresAt)))
            """, conflict: .authSession)
    }

    func authSession(tokenHash: String) async throws -> AuthSessionRecord? {
        guard let row = try await first(
            "SELECT * FROM auth_sessions WHERE token_hash = \(bind: tokenHash)")
        else { return nil }
        return AuthSessionRecord(
            tokenHash: tokenHash, poolId: try row.string("pool_id"), clientId: try row.string("client_id"),
            userSub: try row.optionalString("user_sub"), challenge: try row.string("challenge"),
            state: try row.string("state"), createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"))
    }

    func consumeAuthSession(tokenHash: String) async throws -> Bool {
        try await first("DELETE FROM auth_sessions WHERE token_hash = \(bind: tokenHash) RETURNING token_hash") != nil
    }
}

extension SQLTransaction: SignInLockoutRepository {
    func signInLockout(poolId: String, subject: String) async throws -> SignInLockout? {
        try await first(
            "SELECT * FROM sign_in_failures WHERE pool_id = \(bind: poolId) AND subject = \(bind: subject)"
        ).map { SignInLockout(failures: try $0.int("failures"), lockedUntil: try $0.optionalDate("locked_until")) }
    }

    func signInStanding(poolId: String, sub: String) async throws -> SignInStanding {
        let rows = try await all(
            """
            SELECT u.sub\(unsafeRaw: Self.standingSelectColumns) FROM users u \(unsafeRaw: Self.standingJoin) \
            WHERE u.pool_id = \(bind: poolId) AND u.sub = \(bind: sub)
            """)
        return try Self.standing(in: rows)
    }

    /// Joins a read of users `u` to each user's failure record and groups (a row per group);
    /// `standingSelectColumns` (which starts with a comma) selects their columns, `standing(in:)`
    /// reads them back.
    static let standingJoin = "LEFT JOIN sign_in_failures s ON s.pool_id = u.pool_id AND s.subject = u.sub " + groupJoin
    static let standingSelectColumns =
        ", s.failures AS lockout_failures, s.locked_until AS lockout_locked_until" + groupSelectColumns

    /// The standing in the rows of one user's read joined with `standingJoin`.
    static func standing(in rows: [SQLRow]) throws -> SignInStanding {
        let lockout = try rows.first?.optionalInt64("lockout_failures").map {
            SignInLockout(failures: Int($0), lockedUntil: try rows[0].optionalDate("lockout_locked_until"))
        }
        return SignInStanding(lockout: lockout, groups: try groups(in: rows))
    }

    func recordSignInFailure(poolId: String, subject: String, at date: Date) async throws -> Int {
        let now = Columns.time(date)
        return try await first(
            """
            INSERT INTO sign_in_failures (pool_id, subject, failures, last_failure_at) VALUES (\(bind: poolId), \
            \(bind: subject), 1, \(bind: now)) ON CONFLICT (pool_id, subject) DO UPDATE SET \
            failures = sign_in_failures.failures + 1, last_failure_at = excluded.last_failure_at RETURNING failures
            """)?.int("failures") ?? 1
    }

    func extendSignInLockout(poolId: String, subject: String, until date: Date) async throws {
        let until = Columns.time(date)
        try await run(
            """
            UPDATE sign_in_failures SET locked_until = \(bind: until) WHERE pool_id = \(bind: poolId) \
            AND subject = \(bind: subject) AND (locked_until IS NULL OR locked_until < \(bind: until))
            """)
    }

    func clearSignInLockout(poolId: String, subject: String) async throws {
        try await run("DELETE FROM sign_in_failures WHERE pool_id = \(bind: poolId) AND subject = \(bind: subject)")
    }
}
