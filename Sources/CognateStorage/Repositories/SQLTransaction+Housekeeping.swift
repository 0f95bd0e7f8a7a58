import CognateCore
import Foundation


extension SQLTransaction: HousekeepingRepository {
    func deleteExpired(_ kind: ExpiringRecords, before date: Date, limit: Int) async throws -> Int {
        try await all(Self.deletionOfExpired(kind, before: date, limit: limit, flavor: flavor)).count
    }

    /// The deletion of at most `limit` records of `kind` expired before `date`, in batches so
    /// no sweep holds the database for long; each kind's condition is served by an index
    /// (tested), except for signing keys, a handful per pool.
    static func deletionOfExpired(_ kind: ExpiringRecords, before date: Date, limit: Int, flavor: SQLFlavor) -> SQLStatement {
        let cutoff = Columns.time(date)
        let (table, condition): (String, SQLStatement) = switch kind {
        case .authSessions: ("auth_sessions", "expires_at < \(bind: cutoff)")
        case .outbox: ("outbox", "expires_at < \(bind: cutoff)")
        case .tokenFamilies: ("token_families", "expires_at < \(bind: cutoff)")
        case .codes: ("codes", "expires_at < \(bind: cutoff)")
        case .counters: ("counters", "window_start < \(bind: cutoff)")
        case .signInFailures:
            ("sign_in_failures", "last_failure_at < \(bind: cutoff) AND (locked_until IS NULL OR locked_until < \(bind: cutoff))")
        case .changeFeed: ("change_feed", "changed_at < \(bind: cutoff)")
        case .signingKeys: ("signing_keys", "expires_at < \(bind: cutoff) OR retired_at < \(bind: cutoff)")
        case .unconfirmedDevices: ("devices", "verifier IS NULL AND created_at < \(bind: cutoff)")
        }
        let row = flavor.rowIdentifier
        return "DELETE FROM \(unsafeRaw: table) WHERE \(unsafeRaw: row) IN (SELECT \(unsafeRaw: row) FROM \(unsafeRaw: table) WHERE "
            + condition + " LIMIT \(bind: limit)) RETURNING 1 AS deleted"
    }
}
