import CSQLite
import Foundation

/// One SQLite connection through the C API, with its prepared statements cached by text.
///
/// Contract: used by one task at a time (the backend's pool and write coordinator see to it);
/// every call runs synchronously on the caller's thread — reads from the page cache take
/// microseconds, and only COMMIT (an fsync) is moved off the cooperative pool by the caller.
final class SQLiteConnection: @unchecked Sendable {
    private var handle: OpaquePointer?
    private var statements: [String: PreparedStatement] = [:]
    private var statementOrder: [String] = []
    private var commitHookOwner: AnyObject?
    /// Prepared statements kept per connection; the least recently prepared are finalized first.
    static let statementCacheSize = 256

    final class PreparedStatement {
        let handle: OpaquePointer
        let columns: SQLColumns

        init(handle: OpaquePointer) {
            self.handle = handle
            let count = Int(sqlite3_column_count(handle))
            columns = SQLColumns((0..<count).map { String(cString: sqlite3_column_name(handle, Int32($0))) })
        }

        deinit { sqlite3_finalize(handle) }
    }

    /// Process-wide settings, applied once before the first connection opens.
    private static let configured: Void = {
        _ = cognate_sqlite3_disable_memory_statistics()
    }()

    init(path: String, readOnly: Bool) throws {
        Self.configured
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        self.handle = handle
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            close()
            throw SQLError("Cannot open the SQLite database \(path): \(message)")
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, 5000)
    }

    deinit { close() }

    func close() {
        statements.removeAll()
        statementOrder.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
        commitHookOwner = nil
    }

    /// Calls `hook` after each commit of this connection, with `owner` (kept alive as long as
    /// the connection) as its context and the number of pages in the write-ahead log; SQLite's
    /// automatic checkpoint is off from then on.
    func onCommit(
        _ owner: AnyObject,
        _ hook: @escaping @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32
    ) {
        commitHookOwner = owner
        _ = sqlite3_wal_hook(handle, hook, Unmanaged.passUnretained(owner).toOpaque())
    }

    /// Whether a transaction is open on this connection (SQLite's autocommit mode is off).
    var isInTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }

    /// Runs a statement without parameters or results (pragmas, BEGIN, COMMIT).
    func run(_ sql: String) throws {
        _ = try execute(sql: sql, binds: [])
    }

    func execute(_ statement: SQLStatement) throws -> [SQLRow] {
        let (sql, binds) = try statement.rendered { "?\($0)" }
        return try execute(sql: sql, binds: binds)
    }

    private func execute(sql: String, binds: [SQLValue]) throws -> [SQLRow] {
        let prepared = try prepare(sql)
        let statement = prepared.handle
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in binds.enumerated() {
            let position = Int32(index + 1)
            let status: Int32 = switch value {
            case .null: sqlite3_bind_null(statement, position)
            case .integer(let number): sqlite3_bind_int64(statement, position, number)
            case .real(let number): sqlite3_bind_double(statement, position, number)
            case .text(let text): sqlite3_bind_text(statement, position, text, -1, Self.transient)
            }
            guard status == SQLITE_OK else { throw error(status, sql: sql) }
        }
        var rows: [SQLRow] = []
        let columnCount = Int32(prepared.columns.names.count)
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw error(status, sql: sql) }
            var values: [SQLValue] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(statement, column)))
                case SQLITE_FLOAT: values.append(.real(sqlite3_column_double(statement, column)))
                case SQLITE_NULL: values.append(.null)
                default:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    if let text = sqlite3_column_text(statement, column) {
                        values.append(.text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)))
                    } else {
                        values.append(.text(""))
                    }
                }
            }
            rows.append(SQLRow(columns: prepared.columns, values: values))
        }
    }

    private func prepare(_ sql: String) throws -> PreparedStatement {
        if let cached = statements[sql] { return cached }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status, sql: sql) }
        let prepared = PreparedStatement(handle: statement)
        if statementOrder.count >= Self.statementCacheSize {
            statements[statementOrder.removeFirst()] = nil
        }
        statements[sql] = prepared
        statementOrder.append(sql)
        return prepared
    }

    private func error(_ status: Int32, sql: String) -> any Error {
        switch status {
        case Self.constraintUnique, Self.constraintPrimaryKey: return SQLConstraintViolation.unique
        case Self.constraintForeignKey: return SQLConstraintViolation.foreignKey
        default:
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed"
            return SQLError("SQLite error \(status): \(message) (in \(sql.prefix(120)))")
        }
    }

    // Extended result codes (C macros Swift does not import).
    static let constraintUnique: Int32 = 19 | (8 << 8)
    static let constraintPrimaryKey: Int32 = 19 | (6 << 8)
    static let constraintForeignKey: Int32 = 19 | (3 << 8)

    /// SQLITE_TRANSIENT: SQLite copies bound text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// The session a connection gives a transaction body.
struct SQLiteSession: SQLSession {
    let connection: SQLiteConnection
    var flavor: SQLFlavor { .sqlite }

    @discardableResult
    func execute(_ statement: SQLStatement) async throws -> [SQLRow] { try connection.execute(statement) }
}
