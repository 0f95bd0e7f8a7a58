/// What `operation` returns or throws; or, when the calling task is cancelled first, a
/// `CancellationError` at once, leaving `operation` to finish on its own (it is cancelled too).
///
/// For a statement PostgresNIO may never answer: one written to a connection that has already
/// closed is dropped with the channel's handlers, and its promise is never completed, nor can
/// the caller's cancellation reach it. Awaited directly, it would hang whoever waits for the
/// caller (a store's `close()`). Abandoned, it costs one suspended task until the process ends.
func abandoningOnCancellation<Value: Sendable>(
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let (answers, answer) = AsyncThrowingStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
    let running = Task {
        do { answer.yield(try await operation()) } catch { answer.finish(throwing: error) }
        answer.finish()
    }
    // The stream's iterator returns nil as soon as this task is cancelled, answered or not.
    answer.onTermination = { _ in running.cancel() }
    for try await value in answers { return value }
    throw CancellationError()
}
