import Foundation
import Synchronization

/// Deadlines for calls that may wait on a database that went away (PostgreSQL's connection pool
/// waits for a connection as long as its server does not answer), without a timer per call:
/// one watcher task looks at the calls in flight every `tick` and cancels those past their
/// deadline.
///
/// Contract: ``run(within:_:_:)`` runs `operation` in a child task of its own; when that has not
/// finished `seconds` (plus at most one tick) after the call began, the task is cancelled and
/// the call throws ``StorageError/unreachable(_:)`` instead of what the operation throws on
/// cancellation (an operation that completes anyway is answered). Cancelling the caller
/// cancels the operation. ``stop()`` ends the watcher; calls still in flight then run without
/// a deadline.
final class DeadlineWatch: Sendable {
    private struct Call {
        let deadline: ContinuousClock.Instant
        let task: CallTask
    }

    /// The task running one call. It is cancelled only under `calls`' lock and only while its
    /// call is in flight, and the call leaves `inFlight` under that lock before its task ends:
    /// so the task is alive whenever it is cancelled.
    private struct CallTask: @unchecked Sendable {
        let task: UnsafeCurrentTask
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
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        // A child task, not an unstructured one: it keeps the caller's task executor (the
        // request's event loop), so a call costs no hop to another thread and back; the
        // watcher cancels the child alone, the caller's cancellation reaches it through the group.
        let (result, expired) = await withTaskGroup(of: (Swift.Result<Result, any Error>, Bool).self) { group in
            group.addTask {
                let id = self.enter(until: deadline)
                let result: Swift.Result<Result, any Error>
                do { result = .success(try await operation()) } catch { result = .failure(error) }
                return (result, self.leave(id))
            }
            return await group.next()!
        }
        if case .failure = result, expired {
            let shown = seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
            throw StorageError.unreachable("\(what()) did not answer within \(shown) s.")
        }
        return try result.get()
    }

    /// Puts the current task's call in flight until `deadline`.
    private func enter(until deadline: ContinuousClock.Instant) -> UInt64 {
        withUnsafeCurrentTask { task in
            let call = Call(deadline: deadline, task: CallTask(task: task!))
            return calls.withLock { calls in
                calls.nextID += 1
                calls.inFlight[calls.nextID] = call
                return calls.nextID
            }
        }
    }

    /// Takes call `id` out of flight; true when the watcher had cancelled it.
    private func leave(_ id: UInt64) -> Bool {
        calls.withLock { calls in
            calls.inFlight[id] = nil
            return calls.expired.remove(id) != nil
        }
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
        calls.withLock { calls in
            for (id, call) in calls.inFlight where call.deadline <= now {
                calls.inFlight[id] = nil
                calls.expired.insert(id)
                call.task.task.cancel()  // under the lock: see `CallTask`
            }
        }
    }
}
