import Foundation

/// Read-only connections handed to one task at a time; a task that finds none free waits for
/// the next one returned (in arrival order).
final class SQLiteConnectionPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [SQLiteConnection]
    private var waiters: [CheckedContinuation<SQLiteConnection, Never>] = []
    private var all: [SQLiteConnection]

    init(_ connections: [SQLiteConnection]) {
        idle = connections
        all = connections
    }

    func withConnection<Result>(_ body: (SQLiteConnection) async throws -> Result) async throws -> Result {
        let connection = await checkOut()
        defer { checkIn(connection) }
        return try await body(connection)
    }

    private func checkOut() async -> SQLiteConnection {
        if let connection = lock.withLock({ idle.popLast() }) { return connection }
        return await withCheckedContinuation { continuation in
            let ready: SQLiteConnection? = lock.withLock {
                if let connection = idle.popLast() { return connection }
                waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func checkIn(_ connection: SQLiteConnection) {
        let waiter: CheckedContinuation<SQLiteConnection, Never>? = lock.withLock {
            if waiters.isEmpty {
                idle.append(connection)
                return nil
            }
            return waiters.removeFirst()
        }
        waiter?.resume(returning: connection)
    }

    /// Closes every connection (call once nothing uses the pool any more).
    func close() {
        let connections = lock.withLock { all }
        for connection in connections { connection.close() }
    }
}
