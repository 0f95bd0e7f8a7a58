import CognateCore
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

/// PostgreSQL, for several stateless Cognate nodes sharing one database: PostgresNIO's
/// connection pools (`PostgresClients`: one per event loop), each session pinned to one connection.
///
/// Every connection carries the configured `statement_timeout`, so no query can hold a request
/// (or a row lock) forever. Migrations run under a session advisory lock, so nodes starting at
/// once migrate one after the other.
public final class PostgresBackend: SQLBackend, UserChangeNotifying {
    public let flavor = SQLFlavor.postgres
    private let location: PostgresURL
    private let clients: PostgresClients
    private let running: Task<Void, Never>
    private let logger: Logger
    /// Longest a call waits for a connection and its statements before it fails: the database
    /// may be gone, and the pool would wait for it forever.
    private let deadline: TimeInterval
    private let connectionWait: TimeInterval
    private let deadlines = DeadlineWatch()
    private let statements = PostgresPreparedStatements()
    private let userChangeListener = Mutex<PostgresUserChangeListener?>(nil)
    /// What each connection asks of the server: TCP keep-alive probes (see `open`).
    static let keepAliveParameters = [
        ("tcp_keepalives_idle", "60"), ("tcp_keepalives_interval", "10"), ("tcp_keepalives_count", "6"),
    ]
    /// Key of the advisory lock held while migrating (arbitrary, fixed: "cognate" in ASCII).
    static let migrationLockKey: Int64 = 0x636f_676e_6174_65

    /// Opens the pools and waits until PostgreSQL answers on each, at most
    /// `options.connectionWaitTimeout` (a server that is starting or not listening yet may come
    /// up meanwhile). Throws ``StorageError/unreachable(_:)`` with one sentence: where, and why
    /// in PostgreSQL's, TLS's or the network's words (see ``ConnectionFailure``).
    public static func open(url: String, options: DatabaseOptions, logger: Logger) async throws -> PostgresBackend {
        let location = try PostgresURL(url)
        if let reason = location.passwordFileIgnored { logger.warning("\(reason)") }
        let driverLogger = Self.driverLogger(logger)
        let firstFailure = await connectionFailure(location, within: options.connectionWaitTimeout, logger: driverLogger)
        if let firstFailure, firstFailure.final {
            throw StorageError.unreachable(firstFailure.sentence(location, waited: nil))
        }
        var configuration = location.clientConfiguration
        // The pool keeps all its connections: one opened on demand would start an idle-timeout
        // timer (a task group and a dispatch timer) every time it is handed back, which cost a
        // GetUser about a tenth of its CPU. For the same reason no keep-alive query: PostgresNIO
        // schedules its timer (a task on the pool's run loop, a task group, a dispatch timer) on
        // every hand-back, and cancels it on the next lease. Idle connections stay open through
        // firewalls and NAT by TCP keep-alive instead, which the server sends (below): the
        // kernel's work, nothing per statement.
        configuration.options.keepAliveBehavior = nil
        configuration.options.additionalStartupParameters += keepAliveParameters
        configuration.options.connectTimeout = .milliseconds(Int64(options.connectionWaitTimeout * 1000))
        if let timeout = options.statementTimeout {
            configuration.options.additionalStartupParameters.append(("statement_timeout", String(Int(timeout * 1000))))
        }
        let clients = PostgresClients(configuration: configuration, connections: options.poolSize, logger: driverLogger)
        let backend = PostgresBackend(location: location, clients: clients, options: options, logger: logger)
        await clients.waitUntilRunning()
        do {
            try await backend.ping(within: options.connectionWaitTimeout)
        } catch {
            await backend.shutdown()
            // Asked again only if the first connection succeeded: its failure is the answer otherwise,
            // and asking again would wait once more for a server that does not answer.
            let failure = if let firstFailure { firstFailure } else {
                await connectionFailure(location, within: options.connectionWaitTimeout, logger: driverLogger)
                    ?? ConnectionFailure(reason: "\(error)", final: true)
            }
            throw StorageError.unreachable(failure.sentence(location, waited: options.connectionWaitTimeout))
        }
        return backend
    }

    /// The logger PostgresNIO gets: its info lines (one per failed connection attempt, dozens
    /// while a server is not up) show only when Cognate logs at debug level or below; Cognate
    /// says in one line why it cannot connect.
    static func driverLogger(_ logger: Logger) -> Logger {
        var quiet = logger
        if quiet.logLevel > .debug { quiet.logLevel = max(quiet.logLevel, .notice) }
        return quiet
    }

    /// Why one connection to PostgreSQL failed.
    struct ConnectionFailure: Error {
        /// In PostgreSQL's words (a wrong password, an unknown database), TLS's, or the network's
        /// ("connection refused").
        var reason: String
        /// Waiting will not help (a refusal by PostgreSQL, TLS); not final: a server not up yet.
        var final: Bool
        /// Nothing answered there: no server listening, no socket, no route.
        var nothingListens = false
        /// PostgreSQL refused this user (the reason names the user's password or database).
        var refusedUser = false

        /// The one line an operator reads: where, as whom when PostgreSQL refused the user, why,
        /// and for nothing listening whether PostgreSQL runs there; `waited`: how long the pool
        /// waited for a server that was not up.
        func sentence(_ location: PostgresURL, waited: TimeInterval?) -> String {
            let place = switch location.endpoint {
            case .tcp(let host, let port): "\(host.contains(":") ? "[\(host)]" : host):\(port)"
            case .unixSocket(let path): path
            }
            let who = refusedUser ? " as \(location.user)" : ""
            var line = "Cannot connect to PostgreSQL at \(place)\(who): \(reason)"
            if nothingListens {
                if let waited { line += " (for \(Int(waited)) s)" }
                line += "; is PostgreSQL running there?"
            }
            return line
        }
    }

    /// Why PostgreSQL cannot be reached at `location`, found with one connection of its own (the
    /// pool only retries until its deadline, then times out): in PostgreSQL's words (a wrong
    /// password, an unknown database) or TLS's (a certificate not trusted), `final`; a server
    /// that is not up yet (connection refused, starting up) is not final: the pool waits for
    /// it. Nil when the connection succeeds.
    static func connectionFailure(_ location: PostgresURL, within timeout: TimeInterval,
                                  logger: Logger) async -> ConnectionFailure? {
        do {
            let configuration = try location.connectionConfiguration()
            let connection = try await DeadlineWatch().run(within: timeout, "PostgreSQL") {
                try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            }
            try? await connection.close()
            return nil
        } catch let error as PSQLError {
            if let message = error.serverInfo?[.message] {
                // 57P03: starting up or shutting down
                let starting = error.serverInfo?[.sqlState] == "57P03"
                return ConnectionFailure(reason: message, final: !starting, refusedUser: !starting)
            }
            if let tls = error.underlying, tls is NIOSSLError || tls is NIOSSLExtraError || tls is BoringSSLError {
                return ConnectionFailure(reason: String(describing: tls), final: true)
            }
            if error.code == .authMechanismRequiresPassword {
                return ConnectionFailure(
                    reason: "PostgreSQL asks for a password and none was given (in the URL, PGPASSWORD or the password file)",
                    final: true, refusedUser: true)
            }
            if error.code == .sslUnsupported {
                return ConnectionFailure(reason: "the server does not offer TLS, which this sslmode requires", final: true)
            }
            if let underlying = error.underlying, let network = networkFailure(underlying) { return network }
            let final: Set<PSQLError.Code> = [.unsupportedAuthMechanism, .saslError]
            return ConnectionFailure(reason: error.underlying.map { String(describing: $0) } ?? String(reflecting: error),
                                     final: final.contains(error.code))
        } catch {
            if let network = networkFailure(error) { return network }
            if case StorageError.unreachable = error {   // the deadline: nothing answered
                return ConnectionFailure(reason: "no answer within \(Int(timeout)) s", final: true, nothingListens: true)
            }
            return ConnectionFailure(reason: String(describing: error), final: true)
        }
    }

    /// A failure to reach the server at all, in the network's words; nil for other errors.
    static func networkFailure(_ error: any Error) -> ConnectionFailure? {
        switch error {
        case let error as NIOConnectionError:
            if let attempt = error.connectionErrors.first { return networkFailure(attempt.error) }
            if error.dnsAError != nil || error.dnsAAAAError != nil {
                return ConnectionFailure(reason: "the host name \(error.host) does not resolve", final: true)
            }
            return nil
        case let error as IOError:
            let reason = switch error.errnoCode {
            case ECONNREFUSED: "connection refused"
            case ENOENT: "no socket there"
            case ETIMEDOUT: "no answer"
            default: String(cString: strerror(error.errnoCode)).lowercased()
            }
            return ConnectionFailure(reason: reason, final: false, nothingListens: true)
        case ChannelError.connectTimeout:
            return ConnectionFailure(reason: "no answer", final: false, nothingListens: true)
        default:
            return nil
        }
    }

    private init(location: PostgresURL, clients: PostgresClients, options: DatabaseOptions, logger: Logger) {
        self.location = location
        self.clients = clients
        self.logger = logger
        self.connectionWait = options.connectionWaitTimeout
        self.deadline = options.connectionWaitTimeout + 2 * (options.statementTimeout ?? 30)
        self.running = Task { await clients.run() }
    }

    /// How long a readiness check (`GET /ready`) waits for the database: a load balancer's or
    /// Kubernetes' probe gives up after a few seconds, and should see the 503 rather than a
    /// timeout. Start-up waits `connectionWait` for a database that is still coming up.
    static let readinessWait: TimeInterval = 2

    public func ping() async throws {
        try await ping(within: min(connectionWait, Self.readinessWait))
    }

    private func ping(within seconds: TimeInterval) async throws {
        let clients = self.clients, logger = self.logger
        try await deadlines.run(within: seconds, "PostgreSQL") {
            for client in clients.all {
                try await client.withConnection {
                    _ = try await PostgresSession(connection: $0, logger: logger, statements: nil).execute("SELECT 1")
                }
            }
        }
    }

    public func write<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLSession) async throws -> Result
    ) async throws -> Result {
        try await withSession { session in
            let write = PostgresWriteSession(session)
            do {
                let result = try await body(write)
                try await write.commit()
                return result
            } catch {
                await write.rollBack()
                throw error
            }
        }
    }

    /// In autocommit: PostgreSQL runs a lone statement in a transaction of its own and commits
    /// it before answering (durably, with the default `synchronous_commit`).
    public func writeSingleStatement<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLSession) async throws -> Result
    ) async throws -> Result {
        try await withSession(body)
    }

    /// A pooled connection's session for `body`, within the deadline.
    private func withSession<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresSession) async throws -> Result
    ) async throws -> Result {
        let client = clients.current, logger = self.logger, statements = self.statements
        return try await deadlines.run(within: deadline, "PostgreSQL") {
            try await client.withConnection { connection in
                try await body(PostgresSession(connection: connection, logger: logger, statements: statements))
            }
        }
    }

    public func read<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLSession) async throws -> Result
    ) async throws -> Result {
        try await withSession(body)
    }

    public func withMigrationLock<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLSession) async throws -> Result
    ) async throws -> Result {
        let logger = self.logger
        return try await clients.current.withConnection { connection in
            let session = PostgresSession(connection: connection, logger: logger, statements: nil)
            // No statement timeout while migrating: a migration may rewrite a table of millions
            // of rows, and a node that starts beside another waits for the lock as long as
            // that takes. RESET gives the connection its configured timeout back.
            try await session.execute("SET statement_timeout = 0")
            do {
                try await session.execute("SELECT pg_advisory_lock(\(bind: Self.migrationLockKey))")
                let result = try await body(session)
                try await session.execute("SELECT pg_advisory_unlock(\(bind: Self.migrationLockKey))")
                try await session.execute("RESET statement_timeout")
                return result
            } catch {
                _ = try? await session.execute("SELECT pg_advisory_unlock(\(bind: Self.migrationLockKey))")
                _ = try? await session.execute("RESET statement_timeout")
                throw error
            }
        }
    }

    func keepCurrent(_ cache: UserReadCache) {
        let listener = PostgresUserChangeListener(location: location, cache: cache, logger: logger)
        let previous = userChangeListener.withLock { current in
            defer { current = listener }
            return current
        }
        if let previous { Task { await previous.stop() } }
    }

    public func shutdown() async {
        await userChangeListener.withLock { $0.take() }?.stop()
        deadlines.stop()
        running.cancel()
        await running.value
    }
}

/// A session on one pooled PostgreSQL connection.
struct PostgresSession: SQLSession {
    let connection: PostgresConnection
    let logger: Logger
    /// Names of prepared statements; nil: every statement unprepared (migrations, whose DDL
    /// would leave plans behind that no longer match the schema).
    let statements: PostgresPreparedStatements?
    var flavor: SQLFlavor { .postgres }

    @discardableResult
    func execute(_ statement: SQLStatement) async throws -> [SQLRow] {
        try await execute(statement) { violation, _ in violation }
    }

    /// Runs `statement`; `violation` makes the error of a violated constraint, given the table
    /// PostgreSQL names (that of the failing row).
    @discardableResult
    func execute(_ statement: SQLStatement, violation: (SQLConstraintViolation, _ table: String?) -> any Error)
        async throws -> [SQLRow]
    {
        let (sql, values) = try statement.rendered { "$\($0)" }
        // PostgresNIO never answers a statement written to a connection it has closed (the
        // database ended the session: a restart, a terminated backend): the statement after
        // the one that saw it go, or the roll-back, would wait forever, its cancellation
        // unheard, and its connection with it. The connection closes on its event loop, where
        // a request's statements run; from elsewhere a statement could still slip in between
        // this look and its write.
        guard !connection.isClosed else {
            throw StorageError.unreachable("PostgreSQL closed the connection (before \(sql.prefix(120)))")
        }
        var binds = PostgresBindings(capacity: values.count)
        var types = ""
        for value in values {
            switch value {
            case .null: binds.appendNull(); types += "n"
            case .integer(let number): binds.append(number); types += "i"
            case .real(let number): binds.append(number); types += "r"
            case .text(let text): binds.append(text); types += "t"
            }
        }
        do {
            if let statements, let name = statements.name(for: sql, types: types) {
                do {
                    let known = statements.columns(of: name)
                    let (rows, columns) = try await NamedStatement.$current.withValue((name, sql)) {
                        try await Self.rows(
                            try await connection.execute(NamedStatement(bindings: binds), logger: logger), known: known)
                    }
                    if let columns, columns !== known { statements.remember(columns, of: name) }
                    return rows
                } catch let error as PSQLError where Self.mayHaveFailedPreparing(error) {
                    statements.forget(sql, types: types)
                    throw error
                }
            }
            return try await Self.rows(
                try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger), known: nil).rows
        } catch let error as PSQLError {
            switch error.serverInfo?[.sqlState] {
            case "23505": throw violation(.unique, error.serverInfo?[.tableName])
            case "23503": throw violation(.foreignKey, error.serverInfo?[.tableName])
            case "55P03": throw SQLLockTimeout(description: "PostgreSQL: \(error.serverInfo?[.message] ?? "lock not available")")
            default: throw SQLError("PostgreSQL: \(error.serverInfo?[.message] ?? String(reflecting: error)) (in \(sql.prefix(120)))")
            }
        }
    }

    /// Whether `error` may have come from preparing the statement, which PostgresNIO then
    /// repeats for every later execution of its name on that connection, without asking the
    /// server: a lock wait cut short by the statement timeout would fail that statement on that
    /// connection forever. Not a data exception or a violated constraint (classes 22 and 23:
    /// met while executing, with values a request chose, a taken username among them: a new
    /// name for each would leave the old one prepared on the server's connections, without
    /// bound). Anything else a valid statement meets is rare (timeouts, locks, resources,
    /// "cached plan must not change result type" after another node migrated), and forgetting
    /// the name costs one more preparation per connection.
    private static func mayHaveFailedPreparing(_ error: PSQLError) -> Bool {
        guard let state = error.serverInfo?[.sqlState] else { return false }
        return !state.hasPrefix("22") && !state.hasPrefix("23")
    }

    /// The rows of a result and their columns (nil when there were no rows). `known`: the
    /// columns this statement's results had before, used when the first row's names match them.
    private static func rows<Rows: AsyncSequence>(_ sequence: Rows, known: SQLColumns?) async throws
        -> (rows: [SQLRow], columns: SQLColumns?) where Rows.Element == PostgresRow
    {
        var rows: [SQLRow] = []
        var columns: SQLColumns?
        for try await row in sequence {
            let cells = Array(row)
            let names = columns ?? Self.columns(of: cells, known: known)
            columns = names
            rows.append(SQLRow(columns: names, values: try cells.map(Self.value(of:))))
        }
        return (rows, columns)
    }

    private static func columns(of cells: [PostgresCell], known: SQLColumns?) -> SQLColumns {
        if let known, known.names.count == cells.count,
            zip(known.names, cells).allSatisfy({ $0 == $1.columnName })
        {
            return known
        }
        return SQLColumns(cells.map(\.columnName))
    }

    static func value(of cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8, .oid: return .integer(try cell.decode(Int64.self))
        case .float4, .float8: return .real(try cell.decode(Double.self))
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        default: return .text(try cell.decode(String.self))
        }
    }
}
