import Synchronization

/// Work under way, counted, and a wait until none is.
final class InFlightCount: Sendable {
    private let state = Mutex<(count: Int, waiters: [CheckedContinuation<Void, Never>])>((0, []))

    func begin() {
        state.withLock { $0.count += 1 }
    }

    func end() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count -= 1
            guard state.count == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once nothing is under way.
    func drained() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                guard state.count > 0 else { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
