@testable import CognateStorage
import Logging
import PostgresNIO
import Synchronization
import Testing

struct AbandoningOnCancellationTests {
    struct Refused: Error {}

    @Test func answersAsTheOperationDoes() async throws {
        #expect(try await abandoningOnCancellation { 42 } == 42)
        await #expect(throws: Refused.self) { try await abandoningOnCancellation { () async throws -> Int in throw Refused() } }
    }

    /// An operation that ignores cancellation and never answers (as a statement PostgresNIO
    /// wrote to a closed connection) no longer holds up a cancelled caller.
    @Test func aCancelledCallerGivesUpOnAnOperationThatNeverAnswers() async throws {
        let unanswered = Mutex<[CheckedContinuation<Void, Never>]>([])
        let started = AsyncStream.makeStream(of: Void.self)
        let caller = Task {
            try await abandoningOnCancellation {
                await withCheckedContinuation { continuation in
                    unanswered.withLock { $0.append(continuation) }
                    started.continuation.yield()
                }
            }
        }
        for await _ in started.stream { break }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        for continuation in unanswered.withLock({ $0 }) { continuation.resume() }   // ends the abandoned task
    }
}

@Suite(.enabled(if: !PostgresTestDatabase.skipped, "COGNATE_SKIP_POSTGRES=1"))
struct UnansweredStatementTests {
    /// PostgresNIO never answers a statement written to a connection it has closed: the reason
    /// the listener abandons its heartbeats on cancellation.
    @Test func aStatementOnAClosedConnectionIsAbandonedOnCancellation() async throws {
        let url = try await PostgresTestDatabase.create()
        let connection = try await PostgresConnection.connect(
            configuration: try PostgresURL(url).connectionConfiguration(), id: 1, logger: Logger(label: "test"))
        try await connection.close()
        let statement = Task { try await connection.query("SELECT 1", logger: Logger(label: "test")).collect().count }
        let abandoned = Task { try await abandoningOnCancellation { try await statement.value } }
        try await Task.sleep(for: .milliseconds(500))
        abandoned.cancel()
        await #expect(throws: CancellationError.self) { try await abandoned.value }
    }
}
