import Foundation
import Logging

/// SQLite, embedded, in WAL mode: a small pool of read-only connections beside one writer.
///
/// Reads never wait for writes (WAL keeps a snapshot for each reader) and run on the calling
/// task, with prepared statements cached per connection. Writes go through ``SQLiteWriter``:
/// one at a time, grouped so that transactions arriving together share one fsync, each
/// answered only once durable (`synchronous = FULL`); ``SQLiteCheckpointer`` copies the log
/// back into the database file beside them, so no write waits for a checkpoint. The database holds signing keys and
/// password verifiers: its directory is created `0700` and its files `0600` (see
/// `PrivateFiles`).
public final class SQLiteBackend: SQLBackend {
    public let flavor = SQLFlavor.sqlite
    public let path: String
    private let readers: SQLiteConnectionPool
    private let writer: SQLiteWriter
    private let writerConnection: SQLiteConnection
    private let checkpointer: SQLiteCheckpointer

    /// Read connections per process: readers run on the caller's thread, so a few more than
    /// the cores keeps every core busy without waiting.
    static let readerCount = max(4, ProcessInfo.processInfo.activeProcessorCount * 2)

    public static func open(path: String, logger: Logger) async throws -> SQLiteBackend {
        try PrivateFiles.prepareDatabase(at: path, logger: logger)
        let writer = try SQLiteConnection(path: path, readOnly: false)
        // Temporary storage (statement journals of the savepoints group commit runs each
        // transaction in, RETURNING's buffers) in memory: on disk, SQLite created and unlinked a
        // file in /var/tmp every few sign-ins.
        for pragma in [
            "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL", "PRAGMA foreign_keys = ON", "PRAGMA temp_store = MEMORY",
        ] {
            _ = try writer.execute(SQLStatement(stringLiteral: pragma))
        }
        let checkpointer = try SQLiteCheckpointer(path: path)
        checkpointer.watch(writer)
        var readers: [SQLiteConnection] = []
        for _ in 0..<readerCount {
            let reader = try SQLiteConnection(path: path, readOnly: false)
            try reader.run("PRAGMA query_only = 1")
            readers.append(reader)
        }
        try PrivateFiles.prepareDatabase(at: path, logger: logger)  // the WAL and shared-memory files now exist
        return SQLiteBackend(path: path, writer: writer, checkpointer: checkpointer, readers: readers)
    }

    private init(path: String, writer: SQLiteConnection, checkpointer: SQLiteCheckpointer, readers: [SQLiteConnection]) {
        self.path = path
        self.writerConnection = writer
        self.checkpointer = checkpointer
        self.writer = SQLiteWriter(connection: writer)
        self.readers = SQLiteConnectionPool(readers)
    }

    public func write<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLSession) async throws -> Result
    ) async throws -> Result {
        try await writer.write(body)
    }

    /// The writer commits every write in group commit's transaction: one statement is no cheaper
    /// on its own.
    public func writeSingleStatement<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLSession) async throws -> Result
    ) async throws -> Result {
        try await writer.write(body)
    }

    /// Read-only work in one read transaction: every statement sees the same snapshot.
    public func read<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLSession) async throws -> Result
    ) async throws -> Result {
        try await readers.withConnection { connection in
            try connection.run("BEGIN")
            defer { try? connection.run("COMMIT") }
            return try await body(SQLiteSession(connection: connection))
        }
    }

    public func ping() async throws {
        _ = try await read { try await $0.execute("SELECT 1") }
    }

    public func withMigrationLock<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLSession) async throws -> Result
    ) async throws -> Result {
        // Other processes are held off by each migration's BEGIN IMMEDIATE; the migrator checks
        // the version again inside it. Temporary storage on disk meanwhile: a migration that
        // rebuilds a table copies it in one statement into pages the dropped tables freed, and
        // the statement's journal keeps each such page (in memory, half the database's size).
        try await writer.exclusive { session in
            try await session.execute("PRAGMA temp_store = FILE")
            let result: Swift.Result<Result, any Error>
            do { result = .success(try await body(session)) } catch { result = .failure(error) }
            try await session.execute("PRAGMA temp_store = MEMORY")
            return try result.get()
        }
    }

    /// Closes the connections once the writer has nothing left to do. Runs in its own task, so
    /// a caller whose task was cancelled (a server being torn down) still closes the database.
    public func shutdown() async {
        let writer = self.writer, readers = self.readers, connection = writerConnection, checkpointer = checkpointer
        await Task {
            _ = try? await writer.exclusive { _ in true }
            readers.close()
            connection.close()
            checkpointer.close()
        }.value
    }
}
