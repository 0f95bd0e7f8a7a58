import PostgresNIO
import Synchronization

/// Server-side prepared statements for every statement Cognate sends to PostgreSQL: each is
/// parsed and planned once per connection instead of at every execution (a GetUser was spending
/// more CPU in PostgreSQL's parser and planner than in the two index lookups it needs).
///
/// Contract: a statement is named by its SQL text together with the types of its parameters
/// (a NULL is untyped, so `x = $1` bound once to NULL and once to a number are two statements);
/// the names are shared by all connections, and PostgresNIO prepares a name on a connection
/// the first time that connection executes it. At most ``limit`` distinct statements are
/// prepared, so SQL built from user input (list filters) cannot grow the server's memory
/// without bound: beyond it, statements run unprepared as before.
final class PostgresPreparedStatements: Sendable {
    static let limit = 1000
    private struct Names {
        var bySQL: [String: String] = [:]
        /// Names handed out so far: a forgotten statement's new name is never its old one.
        var issued = 0
    }
    private let names = Mutex(Names())
    /// The columns of each named statement's last result, so that rows of the next one share
    /// them instead of indexing their names again.
    private let columns = Mutex<[String: SQLColumns]>([:])

    /// The name to prepare `sql` under with parameters of `types`, or nil past the limit.
    func name(for sql: String, types: String) -> String? {
        let key = types + "\u{0}" + sql
        return names.withLock { names in
            if let name = names.bySQL[key] { return name }
            guard names.bySQL.count < Self.limit else { return nil }
            let name = "cognate_\(names.issued)_\(UInt32(truncatingIfNeeded: key.hashValue))"
            names.issued += 1
            names.bySQL[key] = name
            return name
        }
    }

    /// Forgets `sql`'s name, so the next execution prepares it afresh under a new one: for a
    /// statement whose cached plan no longer matches the schema (another node migrated), or
    /// whose preparation may have failed (PostgresNIO keeps that failure, and answers every
    /// later execution of the name on that connection with it).
    func forget(_ sql: String, types: String) {
        if let name = names.withLock({ $0.bySQL.removeValue(forKey: types + "\u{0}" + sql) }) {
            _ = columns.withLock { $0.removeValue(forKey: name) }
        }
    }

    /// The columns `name`'s results had last time. A caller checks they are those of its row:
    /// another node's migration can change what `*` stands for on a freshly prepared connection.
    func columns(of name: String) -> SQLColumns? { columns.withLock { $0[name] } }

    func remember(_ result: SQLColumns, of name: String) { columns.withLock { $0[name] = result } }
}

/// The statement PostgresNIO's `execute(_:)` prepares and runs. Its protocol wants the name and
/// SQL as static properties; they are read from a task-local value set around that one call
/// (``PostgresSession``), which PostgresNIO reads synchronously when the call starts.
struct NamedStatement: PostgresPreparedStatement {
    @TaskLocal static var current = (name: "", sql: "")
    static var name: String { current.name }
    static var sql: String { current.sql }

    typealias Row = PostgresRow
    let bindings: PostgresBindings

    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}
