import Foundation
import Synchronization

/// Deadlines for calls that may wait on a database that went away (PostgreSQL's connection pool
/// waits for a connection as long as its server does not answer), without a timer per call:
/// one watcher task looks at the calls in flight every `tick` and cancels those past their
/// deadline.
///
/// Contract: ``run(within:_:_:)`` runs `operation` in a task of its own; when that has not
/// finished `seconds` (plus at most one tick) after the call began, the task is cancelled and
/// the call throws ``StorageError/unreachable(_:)`` instead of what the operation throws on
/// cancellation (an operation that completes anyway is answered). Cancelling the caller
/// cancels the operation. ``stop()`` ends the watcher; calls still in flight then run without
/// a deadline.
final class DeadlineWatch: Sendable {
    private struct Call {
        let deadline: ContinuousClock.Instant
        let cancel: @Sendable () -> Void
    }

    private struct Calls {
        var nextID: UInt64 = 0
        var inFlight: [UInt64: Call] = [:]
        /// Calls the watcher cancelled, until their caller has seen it.
        var expired: Set<UInt64> = []
    }

    private let calls = Mutex(Calls())
    private let watcher = Mutex<Task<Void, Never>?>(nil)
    private let tick: Duration

    init(tick: Duration = .milliseconds(250)) {
        self.tick = tick
    }

    func run<Result: Sendable>(
        within seconds: TimeInterval, _ what: @autoclosure () -> String,
        _ operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        startWatcherOnce()
        let task = Task { try await operation() }
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        let id = calls.withLock { calls in
            calls.nextID += 1
            calls.inFlight[calls.nextID] = Call(deadline: deadline, cancel: { task.cancel() })
            return calls.nextID
        }
        let result = await withTaskCancellationHandler { await task.result } onCancel: { task.cancel() }
        let expired = calls.withLock { calls in
            calls.inFlight[id] = nil
            return calls.expired.remove(id) != nil
        }
        if case .failure = result, expired {
            let shown = seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
            throw StorageError.unreachable("\(what()) did not answer within \(shown) s.")
        }
        return try result.get()
    }

    func stop() {
        watcher.withLock { $0?.cancel() }
    }

    private func startWatcherOnce() {
        watcher.withLock { watcher in
            guard watcher == nil else { return }
            watcher = Task { [weak self, tick] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: tick)
                    guard let self else { return }
                    self.cancelLateCalls()
                }
            }
        }
    }

    private func cancelLateCalls() {
        let now = ContinuousClock.now
        let late = calls.withLock { calls in
            let late = calls.inFlight.filter { $0.value.deadline <= now }
            for id in late.keys {
                calls.inFlight[id] = nil
                calls.expired.insert(id)
            }
            return late.values.map(\.cancel)
        }
        for cancel in late { cancel() }
    }
}
