import Synchronization

/// A session that runs one statement and refuses any after it, on every backend: the
/// contract of ``SQLStore/writeSingleStatement(_:)``, which on PostgreSQL runs without a
/// transaction block, so a second statement would not be atomic with the first. SQLite
/// enforces it too, so the tests catch a broken contract whichever database they run on.
final class SingleStatementSession: SQLSession {
    private let session: any SQLSession
    private let used = Atomic<Bool>(false)

    init(_ session: any SQLSession) { self.session = session }

    var flavor: SQLFlavor { session.flavor }

    @discardableResult
    func execute(_ statement: SQLStatement) async throws -> [SQLRow] {
        guard !used.exchange(true, ordering: .relaxed) else {
            throw SQLError("A single-statement write tried a second statement.")
        }
        return try await session.execute(statement)
    }
}
