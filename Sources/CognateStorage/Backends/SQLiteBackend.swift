import Foundation
import Logging
import Synchronization

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
    /// The one writing connection, with group commit (internal: tests leave it in a transaction).
    let writer: SQLiteWriter
    private let writerConnection: SQLiteConnection
    private let checkpointer: SQLiteCheckpointer
    private let logger: Logger
    /// What keeps the node's user cache current, once a server's store asks for one.
    private let changeWatcher = Mutex<SQLiteChangeWatcher?>(nil)

    /// Read connections per process: readers run on the caller's thread, so a few more than
    /// the cores keeps every core busy without waiting.
    static let readerCount = max(4, ProcessInfo.processInfo.activeProcessorCount * 2)

    /// Opens (`creating`: or creates) the database file at `path`; see ``refuseUnusable(_:creating:)``
    /// for what is refused before anything is changed.
    public static func open(path: String, logger: Logger, creating: Bool = true) async throws -> SQLiteBackend {
        try refuseUnusable(path, creating: creating)
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
        return SQLiteBackend(path: path, writer: writer, checkpointer: checkpointer, readers: readers, logger: logger)
    }

    /// Throws, before the file or its directory is created or changed, when `path` cannot be
    /// opened as a database: ``StorageError/invalidLocation(_:)`` for a directory or a file that
    /// does not start with SQLite's header (a path mistaken for the database must not have its
    /// mode narrowed or its journal changed); with `creating` false,
    /// ``StorageError/noDatabase(_:)`` for a missing or empty file, and for a SQLite file without
    /// Cognate's schema (when a read-only connection can tell).
    static func refuseUnusable(_ path: String, creating: Bool) throws {
        let shown = DatabaseLocation.sqlite(path: path).shown
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            if creating { return }
            throw StorageError.noDatabase("No database at \(shown).")
        }
        if isDirectory.boolValue { throw StorageError.invalidLocation("\(shown) is a directory, not a SQLite database file.") }
        guard let handle = FileHandle(forReadingAtPath: path) else { return }   // SQLite says why it cannot open it
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        if header.isEmpty {
            // A new database's pages may all be in its write-ahead log still.
            if !creating && !FileManager.default.fileExists(atPath: path + "-wal") {
                throw StorageError.noDatabase("\(shown) is an empty file, not a Cognate database.")
            }
            return
        }
        guard header == Data("SQLite format 3\u{0}".utf8) else {
            throw StorageError.invalidLocation(
                "\(shown) is not a SQLite database (it does not start with SQLite's header); it was left unchanged.")
        }
        if !creating, let connection = try? SQLiteConnection(path: path, readOnly: true) {
            defer { connection.close() }
            let tables = try? connection.execute(
                "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").first?.int("n")
            if tables == 0 { throw StorageError.noDatabase("\(shown) is a SQLite database without Cognate's tables.") }
        }
    }

    private init(path: String, writer: SQLiteConnection, checkpointer: SQLiteCheckpointer, readers: [SQLiteConnection],
                 logger: Logger) {
        self.path = path
        self.logger = logger
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
        await changeWatcher.withLock { $0.take() }?.stop()
        let writer = self.writer, readers = self.readers, connection = writerConnection, checkpointer = checkpointer
        await Task {
            _ = try? await writer.exclusive { _ in true }
            readers.close()
            connection.close()
            checkpointer.close()
        }.value
    }
}

extension SQLiteBackend: UserChangeNotifying {
    func keepCurrent(_ cache: UserReadCache) {
        let watcher = SQLiteChangeWatcher(writer: writer, cache: cache, logger: logger)
        let previous = changeWatcher.withLock { current in
            defer { current = watcher }
            return current
        }
        if let previous { Task { await previous.stop() } }
    }
}
