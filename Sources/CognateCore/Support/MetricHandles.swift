import Synchronization

/// swift-metrics handles made once per set of dimension values, then reused. Making a handle
/// asks the backend's registry (a lock and a lookup by name and labels) each time, which on
/// the request path costs more than the update itself.
///
/// Contract: `make` receives the values in the order they are given; a handle made before
/// the metrics backend was bootstrapped stays a no-op, so bootstrap before the first use.
public final class MetricHandles<Handle: Sendable>: Sendable {
    /// One or two dimension values: a key made without an array (every request makes one).
    private struct Dimensions: Hashable {
        let first: String
        let second: String?

        var values: [String] { second.map { [first, $0] } ?? [first] }
    }

    private let made = Mutex<[Dimensions: Handle]>([:])
    private let make: @Sendable ([String]) -> Handle

    public init(_ make: @escaping @Sendable ([String]) -> Handle) {
        self.make = make
    }

    public func callAsFunction(_ value: String) -> Handle {
        handle(Dimensions(first: value, second: nil))
    }

    public func callAsFunction(_ first: String, _ second: String) -> Handle {
        handle(Dimensions(first: first, second: second))
    }

    private func handle(_ dimensions: Dimensions) -> Handle {
        if let handle = made.withLock({ $0[dimensions] }) { return handle }
        let handle = make(dimensions.values)
        made.withLock { $0[dimensions] = handle }
        return handle
    }
}
