/// The differences between the SQL databases Cognate runs on, all in one place. Queries are
/// written once in the common subset (both support `ON CONFLICT`, `RETURNING`, CTEs); what
/// differs is spelled here.
public enum SQLFlavor: Sendable {
    case sqlite
    case postgres

    /// Starts a transaction that writes (migrations). SQLite takes the write lock up front
    /// (`IMMEDIATE`), so two processes never deadlock upgrading read locks.
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

    /// Suffix of a SELECT that takes a share lock of the rows it reads of `table` (its alias):
    /// a concurrent change of them waits, or is waited for, and PostgreSQL checks the
    /// statement's conditions again on the changed row. SQLite needs none (see `forUpdate`).
    func forShare(of table: String) -> String {
        switch self {
        case .sqlite: ""
        case .postgres: " FOR SHARE OF \(table)"
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

    /// An aggregate of the rows' `key` → `value` pairs as the text of one JSON object; over no
    /// rows, NULL or `{}`.
    func jsonObjectAggregate(_ key: String, _ value: String) -> String {
        switch self {
        case .sqlite: "json_group_object(\(key), \(value))"
        case .postgres: "json_object_agg(\(key), \(value))::text"
        }
    }

    var autoIncrementPrimaryKey: String {
        switch self {
        case .sqlite: "INTEGER PRIMARY KEY AUTOINCREMENT"
        case .postgres: "BIGSERIAL PRIMARY KEY"
        }
    }
}

/// A database Cognate stores its state in: sessions for transactions, in the database's dialect.
public protocol SQLBackend: Sendable {
    var flavor: SQLFlavor { get }
    /// Runs `body` in a write transaction: committed — durably — when `write` returns, rolled
    /// back when `body` throws.
    func write<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLSession) async throws -> Result
    ) async throws -> Result
    /// Runs `body`, which runs one statement, as a write: with no transaction block where the
    /// statement is atomic and durable on its own (see ``Store/writeSingleStatement(_:)``).
    func writeSingleStatement<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLSession) async throws -> Result
    ) async throws -> Result
    /// Runs read-only `body` on a consistent view of the database.
    func read<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLSession) async throws -> Result
    ) async throws -> Result
    /// Runs `body` alone, outside any transaction (it begins and commits its own), holding off
    /// other processes or nodes migrating the same database.
    func withMigrationLock<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLSession) async throws -> Result
    ) async throws -> Result
    /// Whether the database answers (readiness), within a few seconds.
    func ping() async throws
    func shutdown() async
}

/// A backend that learns which users other nodes or processes changed, so a node may cache
/// them: PostgreSQL's notices name them; SQLite's data version tells that another process
/// committed (``SQLiteChangeWatcher``).
protocol UserChangeNotifying: SQLBackend {
    /// Starts keeping `cache` current until shutdown: the cache serves entries only while the
    /// backend vouches that it hears of changes (``UserReadCache``).
    func keepCurrent(_ cache: UserReadCache)
}
