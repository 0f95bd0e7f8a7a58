import CognateCore
import Foundation


extension SQLTransaction: CodeRepository {
    func saveCode(_ code: CodeRecord, keepingFailuresSince: Date) async throws {
        let created = Columns.time(code.createdAt)
        let since = Columns.time(keepingFailuresSince)
        try await holdInsert(
            """
            INSERT INTO codes (user_number, purpose, code_hash, delivered_to, pending_value, created_at, expires_at, \
            failed_attempts, attempts_since) VALUES (\(userNumber(code.poolId, code.userSub)), \
            \(bind: code.purpose.rawValue), \(bind: code.codeHash), \(bind: code.deliveredTo), \(bind: code.pendingValue), \
            \(bind: created), \(bind: Columns.time(code.expiresAt)), 0, \(bind: created)) \
            ON CONFLICT (user_number, purpose) DO UPDATE SET code_hash = excluded.code_hash, \
            previous_hash = codes.code_hash, delivered_to = excluded.delivered_to, \
            pending_value = excluded.pending_value, created_at = excluded.created_at, expires_at = excluded.expires_at, \
            failed_attempts = CASE WHEN codes.attempts_since > \(bind: since) THEN codes.failed_attempts ELSE 0 END, \
            attempts_since = CASE WHEN codes.attempts_since > \(bind: since) THEN codes.attempts_since \
            ELSE excluded.attempts_since END
            """, into: "codes")
    }

    func code(poolId: String, userSub: String, purpose: CodePurpose) async throws -> CodeRecord? {
        guard let row = try await first("SELECT * FROM codes WHERE " + Self.codeKey(userNumber(poolId, userSub), purpose)) else {
            return nil
        }
        return CodeRecord(
            poolId: poolId, userSub: userSub, purpose: purpose, codeHash: try row.string("code_hash"),
            previousCodeHash: try row.optionalString("previous_hash"),
            deliveredTo: try row.optionalString("delivered_to"), pendingValue: try row.optionalString("pending_value"),
            createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"), failedAttempts: try row.int("failed_attempts"))
    }

    func recordFailedAttempt(poolId: String, userSub: String, purpose: CodePurpose) async throws -> Int {
        try await first(
            "UPDATE codes SET failed_attempts = failed_attempts + 1 WHERE " + Self.codeKey(userNumber(poolId, userSub), purpose)
                + " RETURNING failed_attempts"
        )?.int("failed_attempts") ?? 0
    }

    func deleteCode(poolId: String, userSub: String, purpose: CodePurpose) async throws {
        try await run("DELETE FROM codes WHERE " + Self.codeKey(userNumber(poolId, userSub), purpose))
    }

    /// The condition naming one code by its whole key: its user's number (an expression of
    /// ``userNumber(_:_:)``) and its purpose.
    static func codeKey(_ userNumber: SQLStatement, _ purpose: CodePurpose) -> SQLStatement {
        "user_number = " + userNumber + " AND purpose = \(bind: purpose.rawValue)"
    }
}
