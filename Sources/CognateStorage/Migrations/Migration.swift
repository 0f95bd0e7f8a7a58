import Foundation


/// One versioned schema change, written once for every flavor (see ``SQLFlavor`` for the
/// placeholders it may use: `{timestamp}`, `{binary_text}`, `{autoincrement_pk}`, `{now}`).
struct Migration: Sendable {
    let version: Int
    let name: String
    let statements: [String]
    /// Run after `statements`, on PostgreSQL only (what SQLite has already, or cannot express).
    var postgresOnly: [String] = []

    func sql(for flavor: SQLFlavor) -> [String] {
        (statements + (flavor == .postgres ? postgresOnly : [])).map {
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
public enum Migrator {
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
        Migration021UnconfirmedDeviceIndex.migration,
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

    /// Returns the versions applied now.
    @discardableResult
    public static func migrate(_ backend: any SQLBackend) async throws -> [Int] {
        let flavor = backend.flavor
        return try await backend.withMigrationLock { session in
            try await session.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at \(unsafeRaw: flavor.timestampType) NOT NULL)")
            let current = try await currentVersion(session)
            guard current <= latestVersion else {
                throw MigrationError.schemaNewerThanBinary(database: current, binary: latestVersion)
            }
            var applied: [Int] = []
            for migration in all.sorted(by: { $0.version < $1.version }) where migration.version > current {
                try await session.execute(SQLStatement(stringLiteral: flavor.beginWrite))
                do {
                    // Another process may have applied it meanwhile (SQLite has no migration lock).
                    if try await currentVersion(session) >= migration.version {
                        try await session.execute("COMMIT")
                        continue
                    }
                    for statement in migration.sql(for: flavor) { try await session.execute(SQLStatement(stringLiteral: statement)) }
                    try await session.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: Date().timeIntervalSince1970))")
                    try await session.execute("COMMIT")
                } catch {
                    _ = try? await session.execute("ROLLBACK")
                    throw error
                }
                applied.append(migration.version)
            }
            return applied
        }
    }

    static func currentVersion(_ session: any SQLSession) async throws -> Int {
        let row = try await session.execute("SELECT MAX(version) AS version FROM schema_migrations").first
        return try row?.optionalInt64("version").map(Int.init) ?? 0
    }
}
