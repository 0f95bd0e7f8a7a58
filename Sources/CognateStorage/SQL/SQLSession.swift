/// One connection's worth of work inside `SQLBackend.write` or `read`: statements run one after
/// another in that session's transaction.
public protocol SQLSession: Sendable {
    var flavor: SQLFlavor { get }
    /// Runs one statement and returns the rows it produced (none for most writes).
    /// Throws ``SQLConstraintViolation`` when a unique or foreign key refused the statement,
    /// ``SQLError`` for anything else.
    @discardableResult
    func execute(_ statement: SQLStatement) async throws -> [SQLRow]
    /// Runs an insert into `table` whose result nobody reads, or holds it to send together with
    /// what follows in the same write (``PostgresWriteSession``). Its failure then surfaces from
    /// a later `execute` of the write or from its commit; either way `failure` makes the error
    /// of its constraint violation.
    func holdInsert(_ statement: SQLStatement, into table: String,
                    failure: @escaping @Sendable (SQLConstraintViolation) -> any Error) async throws
    /// Runs `steps`: SQLite's statements for what PostgreSQL runs as one (a data-modifying
    /// WITH, which SQLite lacks), so that a single-statement write counts them as one. SQLite
    /// only: there every write is a transaction, whatever it runs.
    func stepsOfOneStatement<Result>(_ steps: () async throws -> Result) async throws -> Result
}

extension SQLSession {
    public func stepsOfOneStatement<Result>(_ steps: () async throws -> Result) async throws -> Result {
        try await steps()
    }

    /// Runs the insert at once.
    public func holdInsert(_ statement: SQLStatement, into table: String,
                           failure: @escaping @Sendable (SQLConstraintViolation) -> any Error) async throws {
        do {
            try await execute(statement)
        } catch let violation as SQLConstraintViolation {
            throw failure(violation)
        }
    }
}

/// A constraint of the schema refused a write.
public enum SQLConstraintViolation: Error, Equatable {
    case unique
    case foreignKey
}

/// A database failure that is not a constraint violation: the message the database gave.
public struct SQLError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A statement gave up waiting for a lock (PostgreSQL's `lock_timeout`, SQLSTATE 55P03).
public struct SQLLockTimeout: Error, CustomStringConvertible {
    public let description: String
}
