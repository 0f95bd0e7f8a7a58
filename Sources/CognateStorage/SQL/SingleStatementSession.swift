import Synchronization

/// A session that runs one statement and refuses any after it, on every backend: the
/// contract of ``SQLStore/writeSingleStatement(_:)``, which on PostgreSQL runs without a
/// transaction block, so a second statement would not be atomic with the first. SQLite
/// enforces it too, so the tests catch a broken contract whichever database they run on; its
/// steps of what PostgreSQL runs as one statement (``stepsOfOneStatement(_:)``) count as one.
final class SingleStatementSession: SQLSession {
    private enum Use { case unused, inSteps, used }

    private static let secondStatement = SQLError("A single-statement write tried a second statement.")

    private let session: any SQLSession
    private let use = Mutex(Use.unused)

    init(_ session: any SQLSession) { self.session = session }

    var flavor: SQLFlavor { session.flavor }

    @discardableResult
    func execute(_ statement: SQLStatement) async throws -> [SQLRow] {
        try use.withLock { use in
            switch use {
            case .unused: use = .used
            case .inSteps: break
            case .used: throw Self.secondStatement
            }
        }
        return try await session.execute(statement)
    }

    func stepsOfOneStatement<Result>(_ steps: () async throws -> Result) async throws -> Result {
        try use.withLock { use in
            guard session.flavor == .sqlite else {
                throw SQLError("Steps of one statement are SQLite's: PostgreSQL runs the statement.")
            }
            guard use == .unused else { throw Self.secondStatement }
            use = .inSteps
        }
        defer { use.withLock { $0 = .used } }
        return try await steps()
    }
}
