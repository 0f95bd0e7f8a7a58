/// Where a request's cryptographic work runs: on the event loop that serves its connection, or
/// on Swift's cooperative pool. The composition root chooses, for the database the server uses.
///
/// A request is handled on the event loop that serves its connection (`EventLoopBoundChannel`).
/// With an in-process database (SQLite), cryptography of half a millisecond or more (sign-ins,
/// sign-ups, token endpoints) runs on the cooperative pool instead: on the loop it holds up
/// every other connection of that loop, and the database answers on any thread, so the hop
/// costs two thread hand-offs in all. Measured (docs/performance.md): sign-ins lose 5–10% and
/// their p99 grows by a third to a half when their cryptography stays on the loops.
///
/// With a database over connections of each loop (PostgreSQL) the work stays on the loop: each
/// statement is answered on the loop of the connection pool the request uses, so from the
/// cooperative pool every statement cost two more hand-offs. Measured in two alternated runs:
/// password sign-ins 12–13% and SRP sign-ins 3–4% more per second on the loop.
public struct WorkPlacement: Sendable {
    /// Whether cryptographic work leaves the connection's event loop.
    public let leavesTheLoop: Bool

    public init(leavesTheLoop: Bool) { self.leavesTheLoop = leavesTheLoop }

    /// Runs `work` on the cooperative pool and comes back to the caller's executor afterwards;
    /// in place when the work stays on the loop.
    func run<Result, Failure: Error>(_ work: () async throws(Failure) -> Result) async throws(Failure) -> Result {
        guard leavesTheLoop else { return try await work() }
        return try await withTaskExecutorPreference(globalConcurrentExecutor, operation: work)
    }
}
