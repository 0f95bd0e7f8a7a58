import SQLKit

/// The differences between the SQL databases Cognate runs on, all in one place. Queries are
/// written once in the common subset (both support `ON CONFLICT`, `RETURNING`, CTEs); what
/// differs is spelled here.
public enum SQLFlavor: Sendable {
    case sqlite
    case postgres

    /// Starts a transaction that writes. SQLite takes the write lock up front (`IMMEDIATE`) so
    /// two writers never deadlock upgrading read locks.
    var beginWrite: String {
        switch self {
        case .sqlite: "BEGIN IMMEDIATE"
        case .postgres: "BEGIN"
        }
    }

    /// Suffix of a SELECT that locks the rows it reads of `table` (its alias) until the
    /// transaction ends. SQLite needs none: its write transactions are exclusive.
    func forUpdate(of table: String) -> String {
        switch self {
        case .sqlite: ""
        case .postgres: " FOR UPDATE OF \(table)"
        }
    }

    /// Column types in DDL.
    var timestampType: String {
        switch self {
        case .sqlite: "REAL"
        case .postgres: "DOUBLE PRECISION"
        }
    }

    /// Text compared byte by byte, so ordering and prefix ranges behave alike everywhere.
    var binaryTextType: String {
        switch self {
        case .sqlite: "TEXT"
        case .postgres: "TEXT COLLATE \"C\""
        }
    }

    /// The current time in epoch seconds, as an SQL expression (for migrations).
    var currentEpochSeconds: String {
        switch self {
        case .sqlite: "CAST(strftime('%s', 'now') AS REAL)"
        case .postgres: "EXTRACT(EPOCH FROM now())"
        }
    }

    /// The hidden column that names a row physically (for batched deletes).
    var rowIdentifier: String {
        switch self {
        case .sqlite: "rowid"
        case .postgres: "ctid"
        }
    }

    var autoIncrementPrimaryKey: String {
        switch self {
        case .sqlite: "INTEGER PRIMARY KEY AUTOINCREMENT"
        case .postgres: "BIGSERIAL PRIMARY KEY"
        }
    }
}

/// A source of database sessions (one connection held for the duration of `body`).
public protocol SQLBackend: Sendable {
    var flavor: SQLFlavor { get }
    func withSession<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result
    /// Runs once before migrations, holding off other nodes migrating the same database.
    func withMigrationLock<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result
    /// Whether an error is a unique-key violation.
    func isUniqueViolation(_ error: any Error) -> Bool
    /// Whether an error is a foreign-key violation (the referenced row is gone).
    func isForeignKeyViolation(_ error: any Error) -> Bool
    func shutdown() async
}
