import Logging

/// Keeps a node's ``UserReadCache`` current on SQLite, whose database sends no notices.
///
/// Every `interval` the writer's connection reads `PRAGMA data_version`, which SQLite changes
/// exactly when another connection committed since that connection's last read. The writer is
/// the only connection of this process that writes, so a change means another process (the
/// `cognate` tool, a server opened on the same file) committed: every entry is dropped, since
/// which users changed is not known. This process's own writes drop their users' entries
/// before they return (``UserChanges``), as on PostgreSQL.
///
/// Contract: each read confirms the cache up to the instant before it started
/// (``UserReadCache/confirm(upTo:)``), so another process's change is served at most one
/// `interval` (and one batch of the writer's) after its commit; while reads fail (logged once
/// per streak) or wait (a writer held up), nothing is served past the cache's lease after the
/// last confirmed instant. The read runs between the writer's batches without splitting one
/// (``SQLiteWriter/dataVersion()``), and refuses a connection left inside a transaction, where
/// the version could not move.
final class SQLiteChangeWatcher: Sendable {
    static let interval: Duration = .milliseconds(50)
    private let task: Task<Void, Never>

    init(writer: SQLiteWriter, cache: UserReadCache, logger: Logger, interval: Duration = interval) {
        task = Task {
            var seen: Int?
            var failing = false
            while !Task.isCancelled {
                let started = ContinuousClock.now
                do {
                    let version = try await writer.dataVersion()
                    if let seen, version != seen { cache.invalidate(.everyone) }
                    seen = version
                    cache.confirm(upTo: started)
                    if failing { logger.info("The user cache serves again: SQLite's data version can be read.") }
                    failing = false
                } catch {
                    cache.stopListening()
                    seen = nil
                    if !failing { logger.warning("The user cache is off: SQLite's data version cannot be read (\(error)).") }
                    failing = true
                }
                try? await Task.sleep(for: interval)
            }
            cache.stopListening()
        }
    }

    /// Stops watching: nothing is served from the cache afterwards.
    func stop() async {
        task.cancel()
        await task.value
    }
}
