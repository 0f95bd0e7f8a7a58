import Foundation
import Logging
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO

/// SQLite, embedded: one connection in WAL mode, used by one session at a time. The database
/// holds signing keys and password verifiers: its directory is created `0700` and its files
/// `0600` (see `PrivateFiles`).
///
/// SQLite allows one writer at a time anyway; a single connection serialized by an async lock
/// avoids `SQLITE_BUSY` waits that would hold the (two-thread) pool hostage. Commits are
/// durable (`synchronous = FULL`): a transaction that returned has reached the disk.
public final class SQLiteBackend: SQLBackend {
    public let flavor = SQLFlavor.sqlite
    private let connection: SQLiteConnection
    private let lock = AsyncSerialLock()
    public let path: String

    public static func open(path: String, logger: Logger) async throws -> SQLiteBackend {
        try PrivateFiles.prepareDatabase(at: path, logger: logger)
        let connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        for pragma in [
            "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL", "PRAGMA foreign_keys = ON",
            "PRAGMA busy_timeout = 5000",
        ] {
            _ = try await connection.query(pragma, [])
        }
        return SQLiteBackend(connection: connection, path: path)
    }

    private init(connection: SQLiteConnection, path: String) {
        self.connection = connection
        self.path = path
    }

    public func withSession<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        let database = connection.sql(queryLogLevel: nil)
        return try await lock.withLock { try await body(database) }
    }

    public func withMigrationLock<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        // Other processes are held off by each migration's BEGIN IMMEDIATE; the migrator checks
        // the version again inside it.
        try await withSession(body)
    }

    public func isUniqueViolation(_ error: any Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        switch error.reason {
        case .constraintUniqueFailed, .constraintPrimaryKeyFailed: return true
        case .constraint: return error.message.contains("UNIQUE constraint failed")
        default: return false
        }
    }

    public func isForeignKeyViolation(_ error: any Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        return error.reason == .constraintForeignKeyFailed || error.message.contains("FOREIGN KEY constraint failed")
    }

    /// Closes the connection once no session holds it. Runs in its own task, so a caller whose
    /// task was cancelled (a server being torn down) still closes the database.
    public func shutdown() async {
        await Task { try? await self.lock.withLock { try await self.connection.close() } }.value
    }
}
