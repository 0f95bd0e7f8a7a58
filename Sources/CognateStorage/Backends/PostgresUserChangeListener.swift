import Foundation
import Logging
import PostgresNIO

/// Keeps a ``UserReadCache`` current on PostgreSQL: a connection of its own LISTENs on the
/// channel that migration 023's triggers notify when a user's row (with its attributes) or
/// token families change or go (whichever node, or the `cognate` tool, changed them), and each
/// notice drops that user's entries.
///
/// The cache serves entries only while notices demonstrably arrive: every second the listener
/// sends a heartbeat notice of its own through the same queue, and PostgreSQL delivers notices
/// in commit order, so a heartbeat that comes back vouches that every change committed before
/// it was sent has been applied (``UserReadCache/confirm(upTo:)``); the first one back turns the
/// cache on. When the connection fails, or stays silent for `silenceLimit` (a peer gone without
/// a word, a stopped backend), the cache stops (and empties) and the listener connects again
/// after a second.
final class PostgresUserChangeListener: Sendable {
    /// The channel the triggers notify; a notice's payload is "<pool id> <sub>".
    static let channel = "cognate_user_changes"
    /// How the listener's connection shows in `pg_stat_activity`.
    static let applicationName = "cognate user changes"
    static let retryDelay: Duration = .seconds(1)
    static let heartbeatInterval: Duration = .seconds(1)
    /// Without a heartbeat back for this long, the connection is given up and opened again.
    static let silenceLimit: Duration = .seconds(10)

    private enum Failure: Error, CustomStringConvertible {
        case noticesEnded
        case silent(Duration)

        var description: String {
            switch self {
            case .noticesEnded: "the notices ended"
            case .silent(let duration): "no heartbeat came back for \(duration)"
            }
        }
    }

    private let task: Task<Void, Never>

    init(location: PostgresURL, cache: UserReadCache, logger: Logger) {
        task = Task {
            let failures = FailureCount()
            while !Task.isCancelled {
                do {
                    // Abandoned when the listener stops: a connect, LISTEN or close that a
                    // stopped or vanished server never answers must not hold up `stop()` (and
                    // with it the store's `close()`).
                    try await abandoningOnCancellation {
                        try await Self.listen(location: location, cache: cache, logger: logger, failures: failures)
                    }
                } catch {
                    if !Task.isCancelled, failures.value == 0 {
                        logger.warning("Lost PostgreSQL notices of changed users; the user cache is off until they come back: \(String(reflecting: error))")
                    }
                    failures.value += 1
                }
                cache.stopListening()
                try? await Task.sleep(for: Self.retryDelay)
            }
        }
    }

    /// One connection's LISTEN, until it fails, falls silent or the task is cancelled.
    private static func listen(location: PostgresURL, cache: UserReadCache, logger: Logger, failures: FailureCount) async throws {
        var configuration = try location.connectionConfiguration()
        configuration.options.additionalStartupParameters += PostgresBackend.keepAliveParameters
        configuration.options.additionalStartupParameters.append(("application_name", applicationName))
        let connection = try await PostgresConnection.connect(
            configuration: configuration, id: 0, logger: PostgresBackend.driverLogger(logger))
        let heartbeat = Heartbeat()
        do {
            try await connection.listen(on: channel) { notices in
                let listening = ContinuousClock.now
                if failures.value > 0 { logger.info("Listening to PostgreSQL notices of changed users again; the user cache turns on with the first heartbeat back") }
                failures.value = 0
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await apply(notices, to: cache, heartbeat: heartbeat) }
                    group.addTask { try await sendHeartbeats(heartbeat, on: connection, logger: logger) }
                    group.addTask { try await watchForSilence(of: cache, since: listening) }
                    do {
                        _ = try await group.next()   // each runs until it fails
                    } catch {
                        try? await connection.close()   // fails a heartbeat stuck on a dead connection
                        throw error
                    }
                }
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }

    /// Drops the users other nodes' notices name, and confirms this listener's heartbeats: the
    /// first one back turns the cache on. Not the LISTEN's answer: the proof that the LISTEN
    /// stands is a notice that came through it (a driver or proxy may answer before it commits).
    private static func apply(_ notices: PostgresNotificationSequence, to cache: UserReadCache, heartbeat: Heartbeat)
        async throws
    {
        for try await notice in notices {
            if let sentAt = heartbeat.sentAt(notice.payload) {
                cache.confirm(upTo: sentAt)
            } else if !Heartbeat.isHeartbeat(notice.payload) {   // another listener's are not for us
                cache.noticed(notice.payload)
            }
        }
        throw Failure.noticesEnded
    }

    /// Each heartbeat is abandoned when the listener stops: the connection may close between
    /// the loop's last look at cancellation and the statement's write, and PostgresNIO never
    /// answers a statement written after its connection closed (a store's `close()` hung on it).
    private static func sendHeartbeats(_ heartbeat: Heartbeat, on connection: PostgresConnection, logger: Logger) async throws {
        while true {
            _ = try await abandoningOnCancellation {
                try await connection.query(
                    "SELECT pg_notify(\(channel), \(heartbeat.payload(sentAt: .now)))", logger: logger
                ).collect()
            }
            try await Task.sleep(for: heartbeatInterval)
        }
    }

    /// Fails once no heartbeat came back for `silenceLimit` (counted from `listening` until the first).
    private static func watchForSilence(of cache: UserReadCache, since listening: ContinuousClock.Instant) async throws {
        while true {
            try await Task.sleep(for: heartbeatInterval)
            let silence = cache.unconfirmed(at: .now) ?? listening.duration(to: .now)
            if silence > silenceLimit { throw Failure.silent(silence) }
        }
    }

    func stop() async {
        task.cancel()
        await task.value
    }
}

/// A listener's own notices, "heartbeat <listener id> <nanoseconds since its start>": other
/// nodes see them on the shared channel and ignore them.
struct Heartbeat: Sendable {
    static let prefix = "heartbeat"

    let id = UUID().uuidString
    let start = ContinuousClock.now

    func payload(sentAt instant: ContinuousClock.Instant) -> String {
        let elapsed = start.duration(to: instant).components
        return "\(Self.prefix) \(id) \(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)"
    }

    /// When this listener sent `payload`; nil for any other notice.
    func sentAt(_ payload: String) -> ContinuousClock.Instant? {
        let parts = payload.split(separator: " ")
        guard parts.count == 3, parts[0] == Self.prefix, parts[1] == id, let nanoseconds = Int64(parts[2]) else { return nil }
        return start + .nanoseconds(nanoseconds)
    }

    static func isHeartbeat(_ payload: String) -> Bool { payload.hasPrefix(prefix + " ") }
}

/// How many times in a row the listener failed to listen (it logs the first failure and the
/// recovery after failures); shared by the listener's task and the attempt it may abandon.
final class FailureCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int {
        get { lock.withLock { count } }
        set { lock.withLock { count = newValue } }
    }
}
