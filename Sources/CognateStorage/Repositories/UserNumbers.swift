import Synchronization

/// Hands out users' internal numbers (Migration022UserNumbers): increasing, so that the rows of
/// new users append to their indexes, and unique within the database among living users. On
/// SQLite the number of the newest user, once deleted, is given again: every table keyed by a
/// number must delete its rows with their user (`ON DELETE CASCADE`), or the next user would
/// inherit them. A number is chosen
/// before the user's insert, so that the other rows of the same write (attributes, code) name
/// the user by it: on PostgreSQL they go out in one statement with the user's insert
/// (`PostgresWriteSession`), where a lookup of the number would not see the new user.
enum UserNumbers: Sendable {
    /// One more than the largest number, read inside the write: SQLite's writes are serialized
    /// across processes, and the largest key of the users table is found at once.
    case largestPlusOne
    /// From the users' sequence, which steps by `PostgresBlocks.size`: each `nextval` reserves
    /// a block of numbers for this process, so several nodes never share one, and a node asks
    /// once per block, not once per user.
    case postgresBlocks(PostgresBlocks)

    static func `for`(_ flavor: SQLFlavor) -> UserNumbers {
        switch flavor {
        case .sqlite: .largestPlusOne
        case .postgres: .postgresBlocks(PostgresBlocks())
        }
    }

    func next(in session: any SQLSession) async throws -> Int64 {
        switch self {
        case .largestPlusOne:
            let row = try await session.execute("SELECT COALESCE(MAX(number), 0) + 1 AS next FROM users").first
            guard let next = try row?.int64("next") else { throw SQLError("SQLite gave no next user number.") }
            return next
        case .postgresBlocks(let blocks):
            if let next = blocks.take() { return next }
            let row = try await session.execute(
                "SELECT nextval(pg_get_serial_sequence('users', 'number')) AS first").first
            guard let first = try row?.int64("first") else { throw SQLError("PostgreSQL gave no user number block.") }
            return blocks.start(at: first)
        }
    }

    /// The numbers this process has reserved and not handed out yet.
    final class PostgresBlocks: Sendable {
        /// The sequence's step (set by Migration022UserNumbers): the numbers a `nextval` reserves.
        static let size: Int64 = 64
        private let remaining = Mutex<Range<Int64>>(0..<0)

        func take() -> Int64? {
            remaining.withLock { range in
                guard let next = range.first else { return nil }
                range = range.dropFirst()
                return next
            }
        }

        /// Uses the block that starts at `first`: hands out its first number and keeps the rest
        /// (dropping what is left of an older block, which another task may have just started).
        func start(at first: Int64) -> Int64 {
            remaining.withLock { $0 = (first + 1)..<(first + Self.size) }
            return first
        }
    }
}

/// The numbers of the users one write inserted, by pool and `sub`, so that the write's other
/// rows for them need no lookup.
final class InsertedUserNumbers: Sendable {
    private let numbers = Mutex<[String: Int64]>([:])

    func record(_ number: Int64, poolId: String, sub: String) {
        numbers.withLock { $0[Self.key(poolId, sub)] = number }
    }

    func number(poolId: String, sub: String) -> Int64? {
        numbers.withLock { $0[Self.key(poolId, sub)] }
    }

    private static func key(_ poolId: String, _ sub: String) -> String { poolId + "\u{0}" + sub }
}
