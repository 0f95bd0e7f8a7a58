/// Swift's cooperative pool, for work that leaves the connection's event loop.
///
/// A request is handled on the event loop that serves its connection (`EventLoopBoundChannel`).
/// Cryptography of a millisecond or more (sign-ins, sign-ups, token endpoints) runs here instead:
/// on the loop it would hold up every other connection of that loop and could not spread over
/// the cores. Measured (docs/performance.md): sign-ins lose 5–10% and their p99 grows by half
/// when their cryptography stays on the loops.
enum SharedPool {
    /// Runs `work` on the cooperative pool and comes back to the caller's executor afterwards.
    static func run<Result, Failure: Error>(_ work: () async throws(Failure) -> Result) async throws(Failure) -> Result {
        try await withTaskExecutorPreference(globalConcurrentExecutor, operation: work)
    }
}
