import Foundation
import Logging
import PostgresNIO

/// Keeps a ``UserReadCache`` current on PostgreSQL: a connection of its own LISTENs on the
/// channel that migration 023's triggers notify when a user's row (with its attributes) or
/// token families change or go (whichever node, or the `cognate` tool, changed them), and each
/// notice drops that user's entries.
///
/// The cache serves entries only while the LISTEN stands: when the connection fails the cache
/// stops (and empties), and the listener connects again after a second.
final class PostgresUserChangeListener: Sendable {
    /// The channel the triggers notify; a notice's payload is "<pool id> <sub>".
    static let channel = "cognate_user_changes"
    static let retryDelay: Duration = .seconds(1)

    private let task: Task<Void, Never>

    init(location: PostgresURL, cache: UserReadCache, logger: Logger) {
        task = Task {
            var failures = 0
            while !Task.isCancelled {
                do {
                    try await Self.listen(location: location, cache: cache, logger: logger, failures: &failures)
                } catch {
                    if !Task.isCancelled, failures == 0 {
                        logger.warning("Lost PostgreSQL notices of changed users; the user cache is off until they come back: \(String(reflecting: error))")
                    }
                    failures += 1
                }
                cache.stopListening()
                try? await Task.sleep(for: Self.retryDelay)
            }
        }
    }

    /// One connection's LISTEN, until it fails or the task is cancelled.
    private static func listen(location: PostgresURL, cache: UserReadCache, logger: Logger, failures: inout Int) async throws {
        var configuration = try location.connectionConfiguration()
        configuration.options.additionalStartupParameters += PostgresBackend.keepAliveParameters
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        do {
            try await connection.listen(on: channel) { notices in
                cache.startListening()
                if failures > 0 { logger.info("PostgreSQL notices of changed users arrive again; the user cache is on") }
                failures = 0
                for try await notice in notices { cache.noticed(notice.payload) }
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }

    func stop() async {
        task.cancel()
        await task.value
    }
}
