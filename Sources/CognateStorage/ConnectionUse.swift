import Foundation
import CognateCore
import Metrics
import Synchronization

/// Database pool use for `/metrics`: how many connections transactions hold now
/// (`cognate_db_connections_in_use`, by kind: read or write) and how long each transaction
/// waited for its connection (`cognate_db_connection_wait_seconds`). With no metrics backend
/// bootstrapped (tests, the CLI) the updates go nowhere.
final class ConnectionUse: Sendable {
    enum Kind: String { case read, write }

    private let inUse = Mutex<[Kind: Int]>([:])
    private let waits = MetricHandles { values in
        Timer(label: "cognate_db_connection_wait_seconds", dimensions: [("kind", values[0])])
    }
    private let held = MetricHandles { values in
        Gauge(label: "cognate_db_connections_in_use", dimensions: [("kind", values[0])])
    }

    /// Runs `body` once the backend handed it a connection, counting it as held meanwhile;
    /// `requested` is when the transaction asked for one.
    func holding<Result>(_ kind: Kind, requested: ContinuousClock.Instant, _ body: () async throws -> Result)
        async rethrows -> Result
    {
        let waited = ContinuousClock.now - requested
        waits(kind.rawValue).recordNanoseconds(waited.components.seconds * 1_000_000_000 + waited.components.attoseconds / 1_000_000_000)
        change(kind, by: 1)
        defer { change(kind, by: -1) }
        return try await body()
    }

    private func change(_ kind: Kind, by delta: Int) {
        let now = inUse.withLock { counts in
            counts[kind, default: 0] += delta
            return counts[kind, default: 0]
        }
        held(kind.rawValue).record(now)
    }
}
