import Synchronization

/// A write transaction's session on PostgreSQL that spares round trips (each one costs the
/// node a socket write and a wake-up, and PostgreSQL a message cycle):
/// - BEGIN goes out with the first statement that needs it, not before;
/// - inserts nobody reads the result of (`holdInsert`) wait, and go out together as one
///   statement of data-modifying WITH clauses, right before the next other statement or the
///   commit. A write made of held inserts only (a sign-up: the user, its attributes, its code,
///   the outbox's message) is a single statement in autocommit, atomic and durable on its own,
///   with no BEGIN and no COMMIT.
///
/// Contract: statements reach the database in the order given, except that held inserts wait;
/// every other statement first sends what waits, so it sees those rows. Inserts held together
/// go to different tables (one for a table already waiting sends the batch first): the WITH
/// clauses of one statement do not see each other's rows, and PostgreSQL names the table of a
/// violated constraint, which picks the failing insert's own error. Foreign keys are checked
/// at the end of the statement, so a row may refer to one inserted beside it.
///
/// Used by one task at a time (the body of one `write`).
final class PostgresWriteSession: SQLSession {
    private struct HeldInsert: Sendable {
        let statement: SQLStatement
        let table: String
        let failure: @Sendable (SQLConstraintViolation) -> any Error
    }

    private struct State {
        var begun = false
        var held: [HeldInsert] = []
    }

    private let session: PostgresSession
    private let state = Mutex(State())

    init(_ session: PostgresSession) { self.session = session }

    var flavor: SQLFlavor { .postgres }

    @discardableResult
    func execute(_ statement: SQLStatement) async throws -> [SQLRow] {
        try await sendHeld(inTransaction: true)
        return try await session.execute(statement)
    }

    func holdInsert(_ statement: SQLStatement, into table: String,
                    failure: @escaping @Sendable (SQLConstraintViolation) -> any Error) async throws {
        if state.withLock({ $0.held.contains { $0.table == table } }) { try await sendHeld(inTransaction: true) }
        state.withLock { $0.held.append(HeldInsert(statement: statement, table: table, failure: failure)) }
    }

    /// Ends the write: sends what waits, and commits what BEGIN opened.
    func commit() async throws {
        let begun = state.withLock { $0.begun }
        try await sendHeld(inTransaction: begun)
        if begun { try await session.execute("COMMIT") }
    }

    /// Ends a failed write: drops what waits and rolls back what was sent.
    func rollBack() async {
        let begun = state.withLock { state in
            state.held = []
            return state.begun
        }
        if begun { _ = try? await session.execute("ROLLBACK") }
    }

    /// Sends the held inserts as one statement; with `inTransaction`, inside the transaction,
    /// which BEGIN opens first if it is not open yet.
    private func sendHeld(inTransaction: Bool) async throws {
        let (opening, held) = state.withLock { state in
            let opening = inTransaction && !state.begun
            if opening { state.begun = true }
            defer { state.held = [] }
            return (opening, state.held)
        }
        if opening { try await session.execute("BEGIN") }
        guard let last = held.last else { return }
        var combined: SQLStatement = ""
        for (index, insert) in held.dropLast().enumerated() {
            combined += "\(unsafeRaw: index == 0 ? "WITH" : ",") held_\(unsafeRaw: String(index)) AS (\(insert.statement))"
        }
        combined += held.count > 1 ? " " + last.statement : last.statement
        try await session.execute(combined) { violation, table in
            guard let insert = held.first(where: { $0.table == table }) ?? (held.count == 1 ? last : nil) else {
                return violation
            }
            return insert.failure(violation)
        }
    }
}
