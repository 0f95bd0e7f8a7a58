/// A first-in, first-out lock for async code: ``SMTPClient`` holds it for each message, so
/// callers that send concurrently take turns on the one connection instead of interleaving
/// their commands (actor methods alone would interleave at every `await`).
///
/// Waiting for the gate is not cancellable; it lasts as long as the sends before it, each of
/// which is bounded by the configured timeouts.
actor SerialGate {
    private var isHeld = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard isHeld else {
            isHeld = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Hands the gate to the longest waiter, or opens it.
    func release() {
        if waiters.isEmpty {
            isHeld = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
