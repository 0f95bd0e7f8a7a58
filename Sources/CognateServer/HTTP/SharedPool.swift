import CognateStorage
import Synchronization

/// Swift's cooperative pool, for work that leaves the connection's event loop.
///
/// A request is handled on the event loop that serves its connection (`EventLoopBoundChannel`).
/// On SQLite, cryptography of half a millisecond or more (sign-ins, sign-ups, token endpoints)
/// runs here instead: on the loop it holds up every other connection of that loop, and SQLite's
/// reads and group commit answer on any thread, so the hop costs two thread hand-offs in all.
/// Measured (docs/performance.md): sign-ins lose 5–10% and their p99 grows by a third to a half
/// when their cryptography stays on the loops.
///
/// On PostgreSQL the work stays on the loop: each statement is answered on the loop of the
/// connection pool the request uses (one pool per loop), so from the cooperative pool every
/// statement cost two more hand-offs. Measured in two alternated runs: password sign-ins 12–13%
/// and SRP sign-ins 3–4% more per second on the loop, their peak p99 lower.
enum SharedPool {
    private static let leavesTheLoop = Atomic<Bool>(true)

    /// Chooses where `run` runs its work for the database a server serves: called once as the
    /// server starts. One process serves one database.
    static func configure(for flavor: SQLFlavor) {
        leavesTheLoop.store(flavor == .sqlite, ordering: .relaxed)
    }

    /// Runs `work` on the cooperative pool and comes back to the caller's executor afterwards;
    /// on PostgreSQL, in place.
    static func run<Result, Failure: Error>(_ work: () async throws(Failure) -> Result) async throws(Failure) -> Result {
        guard leavesTheLoop.load(ordering: .relaxed) else { return try await work() }
        return try await withTaskExecutorPreference(globalConcurrentExecutor, operation: work)
    }
}
