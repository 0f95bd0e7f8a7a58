/// Runs CPU-bound work (the SRP exponentiations, a few milliseconds each) as a detached task
/// on the global concurrent executor, so the calling actor — the ``AuthClient`` — keeps serving
/// other calls (`state()`, `currentSession()`, …) meanwhile. The work itself is not cancellable.
enum OffActor {
    static func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await Task.detached(priority: Task.currentPriority) { try work() }.value
    }
}
