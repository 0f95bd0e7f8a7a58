import Foundation

/// Runs `operation`, giving up with `StorageError.unreachable` once `seconds` have passed
/// (the operation is cancelled). For what may wait on a database that went away: PostgreSQL's
/// connection pool waits for a connection as long as its server does not answer.
func withDeadline<Result: Sendable>(
    _ seconds: TimeInterval, _ what: @autoclosure () -> String, _ operation: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let description = what()
    return try await withThrowingTaskGroup(of: Result.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            throw StorageError.unreachable("\(description) did not answer within \(Int(seconds)) s.")
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}
