import CognateCore
import Foundation
import Logging

/// The ``Store`` over SQL, for every ``SQLBackend``.
public final class SQLStore: Store {
    public let backend: any SQLBackend
    private let connectionUse = ConnectionUse()
    private let userNumbers: UserNumbers
    /// Users as read-only requests see them, where asked for (``UserChangeNotifying``: both
    /// databases).
    let userCache: UserReadCache?

    /// What requests that only answer read users through: the node's cache of users where the
    /// store keeps one (``UserReadCache`` states what it promises), else the database each time.
    public var snapshots: any UserSnapshots {
        userCache.map { CachedUserSnapshots(store: self, cache: $0) } ?? StoreSnapshots(store: self)
    }

    /// The database's SQL dialect (and with it, how it is reached: in process, or over a connection).
    public var flavor: SQLFlavor { backend.flavor }

    /// `cachingUsers`: keep a ``UserReadCache``, at the cost of a connection that listens to
    /// changes (PostgreSQL) or of the writer's reading the data version twenty times a second
    /// (SQLite). A server's store; not the command-line tool's, which makes a few statements
    /// and exits.
    public init(backend: any SQLBackend, cachingUsers: Bool = false) {
        self.backend = backend
        self.userNumbers = UserNumbers.for(backend.flavor)
        if cachingUsers, let notifying = backend as? any UserChangeNotifying {
            let cache = UserReadCache()
            notifying.keepCurrent(cache)
            userCache = cache
        } else {
            userCache = nil
        }
    }

    /// Opens the database a location names (``DatabaseLocation``: a SQLite file path, or a
    /// `postgres://` / `postgresql://` URL; any other `scheme://` is refused) and brings its
    /// schema up to date. `cachingUsers`: as ``init(backend:cachingUsers:)``.
    ///
    /// - Parameter creating: true for what may start a database (`serve`, `migrate`): a SQLite
    ///   file is created where none is, and an empty database gets the schema. False for the
    ///   commands that work on a server's database: a location without a Cognate database (no
    ///   file, an empty one, a database without Cognate's tables) throws
    ///   ``StorageError/noDatabase(_:)``, and nothing is created there.
    public static func open(_ location: String, options: DatabaseOptions = DatabaseOptions(), logger: Logger,
                             migrate: Bool = true, creating: Bool = true, cachingUsers: Bool = false) async throws -> SQLStore {
        let backend = try await openBackend(location, options: options, logger: logger, creating: creating)
        do {
            if !creating, try await !Migrator.hasSchema(backend) {
                throw StorageError.noDatabase("\(try DatabaseLocation(location).shown) holds no Cognate tables.")
            }
            if migrate { try await Migrator.migrate(backend, logger: logger) }
        } catch {
            await backend.shutdown()
            throw error
        }
        return SQLStore(backend: backend, cachingUsers: cachingUsers)
    }

    /// The backend of the database `location` names, as ``open(_:options:logger:migrate:creating:cachingUsers:)``
    /// finds it, without migrating. A file that is not a SQLite database, or a directory, is
    /// refused before anything is changed; with `creating` false, so is a missing or empty file
    /// and a SQLite file without Cognate's tables.
    public static func openBackend(_ location: String, options: DatabaseOptions = DatabaseOptions(), logger: Logger,
                                   creating: Bool = true) async throws -> any SQLBackend {
        switch try DatabaseLocation(location) {
        case .postgres(let url):
            return try await PostgresBackend.open(url: url, options: options, logger: logger)
        case .sqlite(let path):
            return try await SQLiteBackend.open(path: path, logger: logger, creating: creating)
        }
    }

    public func write<Result: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> Result
    ) async throws -> Result {
        let requested = ContinuousClock.now
        let changes = userCache.map { _ in UserChanges() }
        defer { if let changes { userCache?.invalidate(changes.collected) } }
        return try await backend.write { [connectionUse, userNumbers] session in
            try await connectionUse.holding(.write, requested: requested) {
                try await body(SQLTransaction(session: session, userNumbers: userNumbers, userChanges: changes))
            }
        }
    }

    /// A write whose `body` runs exactly one statement, which is atomic on its own: a database
    /// that needs a transaction block for several statements may skip it (PostgreSQL saves the
    /// BEGIN and COMMIT round trips). Committed durably when it returns, like `write`. What the
    /// ``AtomicWrites`` operations run in; a body that tries a second statement fails.
    public func writeSingleStatement<Result: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> Result
    ) async throws -> Result {
        let requested = ContinuousClock.now
        let changes = userCache.map { _ in UserChanges() }
        defer { if let changes { userCache?.invalidate(changes.collected) } }
        return try await backend.writeSingleStatement { [connectionUse, userNumbers] session in
            try await connectionUse.holding(.write, requested: requested) {
                try await body(SQLTransaction(
                    session: SingleStatementSession(session), userNumbers: userNumbers, userChanges: changes))
            }
        }
    }

    public func read<Result: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> Result
    ) async throws -> Result {
        let requested = ContinuousClock.now
        return try await backend.read { [connectionUse, userNumbers] session in
            try await connectionUse.holding(.read, requested: requested) {
                try await body(SQLTransaction(session: session, userNumbers: userNumbers))
            }
        }
    }

    public func ping() async throws { try await backend.ping() }

    public func close() async { await backend.shutdown() }

    /// A database location fit for messages, logs and `cognate config check`: a URL's password
    /// becomes `***`, whether in its user part or in a `password=` parameter (libpq reads both).
    public static func redacted(_ location: String) -> String { DatabaseLocationText.redacted(location) }
}

public enum StorageError: Error, CustomStringConvertible {
    case unreachable(String)
    case corrupt(String)
    /// A location that cannot name a database (an unknown URL scheme, a directory, a file that
    /// is not a SQLite database).
    case invalidLocation(String)
    /// No Cognate database where a command that does not create one looked.
    case noDatabase(String)

    public var description: String {
        switch self {
        case .unreachable(let message), .corrupt(let message), .invalidLocation(let message), .noDatabase(let message): message
        }
    }
}
