import Foundation
import Logging


/// One versioned schema change, written once for every flavor (see ``SQLFlavor`` for the
/// placeholders it may use: `{timestamp}`, `{binary_text}`, `{autoincrement_pk}`, `{now}`).
struct Migration: Sendable {
    let version: Int
    let name: String
    let statements: [String]
    /// Run before `statements`, on PostgreSQL only (what SQLite has already, or cannot express).
    var postgresOnly: [String] = []
    /// Run before `statements`, on SQLite only.
    var sqliteOnly: [String] = []
    /// The migration drops tables that others reference and creates them again. On SQLite it
    /// runs with foreign keys off (dropping a referenced table would otherwise delete, by
    /// cascade, every row that references it) and commits only if `foreign_key_check` then
    /// finds every reference whole.
    var rebuildsReferencedTables = false

    func sql(for flavor: SQLFlavor) -> [String] {
        ((flavor == .postgres ? postgresOnly : sqliteOnly) + statements).map {
            $0.replacingOccurrences(of: "{timestamp}", with: flavor.timestampType)
                .replacingOccurrences(of: "{binary_text}", with: flavor.binaryTextType)
                .replacingOccurrences(of: "{autoincrement_pk}", with: flavor.autoIncrementPrimaryKey)
                .replacingOccurrences(of: "{now}", with: flavor.currentEpochSeconds)
        }
    }
}

/// Applies pending migrations in order, each in its own transaction.
///
/// Contract: safe when several nodes start at once (the backend's migration lock serializes
/// them; a node that finds the work done does nothing); refuses to run on a database whose
/// schema is newer than this binary knows (`MigrationError.schemaNewerThanBinary`).
///
/// On PostgreSQL, while nodes of the previous version serve requests (a rolling upgrade), a
/// migration waits at most `lockTimeout` for each table lock it needs: a lock request that
/// waits also holds up every later request for the same table, so one long transaction
/// elsewhere (an operator's session left open) would otherwise stall every request that
/// touches the table until it ends. The migration steps back instead (its transaction rolls
/// back), says so, and tries again after `retryDelay`, for as long as it takes.
public enum Migrator {
    public static let defaultLockTimeout: Duration = .seconds(5)
    static let retryDelay: Duration = .seconds(1)

    static let all: [Migration] = [
        Migration001Initial.migration, Migration002SignIn.migration, Migration003AccountLifecycle.migration,
        Migration004Hardening.migration, Migration005MessageQueue.migration, Migration006Functions.migration,
        Migration007MessageOccasion.migration, Migration008Mfa.migration,
        Migration009Devices.migration, Migration010MfaCodesAndPins.migration,
        Migration011OAuth.migration, Migration012Federation.migration,
        Migration013UICustomization.migration, Migration014RefreshRotation.migration,
        Migration015ClientSecrets.migration, Migration016UserImport.migration,
        Migration017Terms.migration, Migration018ThreatProtection.migration,
        Migration019AttributeValueIndex.migration, Migration020ByteOrderedNames.migration,
        Migration021UnconfirmedDeviceIndex.migration, Migration022UserNumbers.migration,
        Migration023UserChangeNotices.migration, Migration024MfaChangeNotices.migration,
        Migration025Passkeys.migration, Migration026PinFailures.migration, Migration027UserSessions.migration,
        Migration028IdentityPools.migration, Migration029ClientMetadataDocuments.migration,
        Migration030CustomRegistration.migration,
    ]

    public static var latestVersion: Int { all.map(\.version).max() ?? 0 }

    public enum MigrationError: Error, CustomStringConvertible {
        case schemaNewerThanBinary(database: Int, binary: Int)

        public var description: String {
            switch self {
            case .schemaNewerThanBinary(let database, let binary):
                "The database schema is at version \(database), newer than this binary supports (\(binary)). "
                    + "Run a newer Cognate, or restore a backup made for this version."
            }
        }
    }

    /// Returns the versions applied now; with `version` (tests of a migration), stops there.
    @discardableResult
    public static func migrate(_ backend: any SQLBackend, upTo version: Int? = nil,
                               lockTimeout: Duration = defaultLockTimeout, logger: Logger? = nil) async throws -> [Int] {
        let flavor = backend.flavor
        return try await backend.withMigrationLock { session in
            try await session.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at \(unsafeRaw: flavor.timestampType) NOT NULL)")
            let current = try await currentVersion(session)
            guard current <= latestVersion else {
                throw MigrationError.schemaNewerThanBinary(database: current, binary: latestVersion)
            }
            var applied: [Int] = []
            let last = version ?? latestVersion
            for migration in all.sorted(by: { $0.version < $1.version })
            where migration.version > current && migration.version <= last {
                if try await applyWhenItsLocksAreFree(migration, in: session, flavor: flavor, lockTimeout: lockTimeout,
                                                      logger: logger) {
                    applied.append(migration.version)
                }
            }
            return applied
        }
    }

    /// ``apply(_:in:flavor:lockTimeout:)``, again after `retryDelay` for as long as it gives up
    /// waiting for a table lock.
    private static func applyWhenItsLocksAreFree(
        _ migration: Migration, in session: any SQLSession, flavor: SQLFlavor, lockTimeout: Duration, logger: Logger?
    ) async throws -> Bool {
        while true {
            do {
                return try await apply(migration, in: session, flavor: flavor, lockTimeout: lockTimeout)
            } catch let error as SQLLockTimeout {
                logger?.warning("""
                    Migration \(migration.version) (\(migration.name)) waited \(lockTimeout) for a table lock \
                    that another session holds (\(error)); it stepped back so that requests do not queue behind \
                    it, and tries again. A transaction left open (pg_stat_activity: state 'idle in transaction') \
                    holds it up.
                    """)
                try await Task.sleep(for: retryDelay)
            }
        }
    }

    /// Applies `migration` in one transaction; false when another process applied it first.
    private static func apply(_ migration: Migration, in session: any SQLSession, flavor: SQLFlavor,
                              lockTimeout: Duration) async throws -> Bool {
        // A no-op inside a transaction: set before it begins, and back after it ends.
        let foreignKeysOff = migration.rebuildsReferencedTables && flavor == .sqlite
        if foreignKeysOff { try await session.execute("PRAGMA foreign_keys = OFF") }
        let outcome: Result<Bool, any Error>
        do {
            try await session.execute(SQLStatement(stringLiteral: flavor.beginWrite))
            if flavor == .postgres {
                let milliseconds = max(1, Int(lockTimeout / .milliseconds(1)))
                try await session.execute(SQLStatement(stringLiteral: "SET LOCAL lock_timeout = \(milliseconds)"))
            }
            outcome = .success(try await applyInTransaction(migration, in: session, flavor: flavor, checkReferences: foreignKeysOff))
        } catch {
            _ = try? await session.execute("ROLLBACK")
            outcome = .failure(error)
        }
        if foreignKeysOff { try await session.execute("PRAGMA foreign_keys = ON") }
        return try outcome.get()
    }

    private static func applyInTransaction(
        _ migration: Migration, in session: any SQLSession, flavor: SQLFlavor, checkReferences: Bool
    ) async throws -> Bool {
        // Another process may have applied it meanwhile (SQLite has no migration lock).
        if try await currentVersion(session) >= migration.version {
            try await session.execute("COMMIT")
            return false
        }
        for statement in migration.sql(for: flavor) { try await session.execute(SQLStatement(stringLiteral: statement)) }
        if checkReferences, let broken = try await session.execute("PRAGMA foreign_key_check").first {
            let table = (try? broken.string("table")) ?? "?", parent = (try? broken.string("parent")) ?? "?"
            let row = (try? broken.optionalInt64("rowid")).flatMap { $0 }.map(String.init) ?? "?"
            throw SQLError("Migration \(migration.version) found a row of \(table) (rowid \(row)) that refers to a missing row of "
                + "\(parent); nothing was changed. `PRAGMA foreign_key_check` lists every such row.")
        }
        try await session.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: Date().timeIntervalSince1970))")
        try await session.execute("COMMIT")
        return true
    }

    /// Whether the database holds Cognate's schema (its `schema_migrations` table), without
    /// creating anything.
    public static func hasSchema(_ backend: any SQLBackend) async throws -> Bool {
        let query: SQLStatement = switch backend.flavor {
        case .sqlite: "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        case .postgres:
            "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'schema_migrations' AND table_schema = current_schema()"
        }
        return try await backend.read { try await $0.execute(query).first?.int("n") ?? 0 } > 0
    }

    static func currentVersion(_ session: any SQLSession) async throws -> Int {
        let row = try await session.execute("SELECT MAX(version) AS version FROM schema_migrations").first
        return try row?.optionalInt64("version").map(Int.init) ?? 0
    }
}
