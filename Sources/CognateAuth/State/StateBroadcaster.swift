/// Fans auth states out to any number of `AsyncStream` subscribers. Not thread-safe on its
/// own: the owning actor serializes access.
struct StateBroadcaster {
    private(set) var current: AuthState?
    private var subscribers: [Int: AsyncStream<AuthState>.Continuation] = [:]
    private var nextId = 0

    /// Registers a subscriber; it receives `current` (which must be known) first.
    mutating func subscribe(onTermination: @escaping @Sendable (Int) -> Void) -> AsyncStream<AuthState> {
        let (stream, continuation) = AsyncStream.makeStream(of: AuthState.self, bufferingPolicy: .unbounded)
        let id = nextId
        nextId += 1
        subscribers[id] = continuation
        continuation.onTermination = { _ in onTermination(id) }
        if let current { continuation.yield(current) }
        return stream
    }

    mutating func unsubscribe(_ id: Int) { subscribers[id] = nil }

    /// Sets the state; subscribers hear of it only when it changed.
    mutating func publish(_ state: AuthState) {
        guard state != current else { return }
        current = state
        for continuation in subscribers.values { continuation.yield(state) }
    }

    func finishAll() {
        for continuation in subscribers.values { continuation.finish() }
    }
}
