@preconcurrency import AsyncKit
import Foundation
import Logging
import NIOPosix
import PostgresKit
import SQLKit

/// PostgreSQL, for several stateless Cognate nodes sharing one database: a pool of
/// connections, each session pinned to one of them.
///
/// Every connection carries the configured `statement_timeout`, so no query can hold a request
/// (or a row lock) forever. Migrations run under a session advisory lock, so nodes starting at
/// once migrate one after the other.
public final class PostgresBackend: SQLBackend {
    public let flavor = SQLFlavor.postgres
    private let pool: EventLoopGroupConnectionPool<PostgresConnectionSource>
    private let logger: Logger
    /// Key of the advisory lock held while migrating (arbitrary, fixed: "cognate" in ASCII).
    static let migrationLockKey: Int64 = 0x636f_676e_6174_65

    public static func open(url: String, options: DatabaseOptions, logger: Logger) async throws -> PostgresBackend {
        var configuration = try SQLPostgresConfiguration(url: url)
        if let timeout = options.statementTimeout {
            configuration.coreConfiguration.options.additionalStartupParameters.append(
                ("statement_timeout", String(Int(timeout * 1000))))
        }
        let group = MultiThreadedEventLoopGroup.singleton
        let loops = Array(group.makeIterator()).count
        let pool = EventLoopGroupConnectionPool(
            source: PostgresConnectionSource(sqlConfiguration: configuration),
            maxConnectionsPerEventLoop: max(1, (options.poolSize + loops - 1) / loops),
            requestTimeout: .milliseconds(Int64(options.connectionWaitTimeout * 1000)), pruneInterval: .seconds(60),
            logger: logger, on: group)
        let backend = PostgresBackend(pool: pool, logger: logger)
        do {
            _ = try await backend.withSession { try await $0.raw("SELECT 1 AS one").first() }
        } catch {
            await backend.shutdown()
            throw StorageError.unreachable("Cannot connect to PostgreSQL at \(SQLStore.redacted(url)): \(String(reflecting: error))")
        }
        return backend
    }

    private init(pool: EventLoopGroupConnectionPool<PostgresConnectionSource>, logger: Logger) {
        self.pool = pool
        self.logger = logger
    }

    public func withSession<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        try await pool.database(logger: logger).sql(queryLogLevel: nil).withSession(body)
    }

    public func withMigrationLock<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        try await withSession { database in
            try await database.raw("SELECT pg_advisory_lock(\(bind: Self.migrationLockKey))").run()
            do {
                let result = try await body(database)
                try await database.raw("SELECT pg_advisory_unlock(\(bind: Self.migrationLockKey))").run()
                return result
            } catch {
                try? await database.raw("SELECT pg_advisory_unlock(\(bind: Self.migrationLockKey))").run()
                throw error
            }
        }
    }

    public func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }

    public func isForeignKeyViolation(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] == "23503"
    }

    public func shutdown() async {
        try? await pool.shutdownAsync()
    }


}
