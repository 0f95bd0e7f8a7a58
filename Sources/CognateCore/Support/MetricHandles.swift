import Synchronization

/// swift-metrics handles made once per set of dimension values, then reused. Making a handle
/// asks the backend's registry (a lock and a lookup by name and labels) each time, which on
/// the request path costs more than the update itself.
///
/// Contract: `make` receives the values in the order they are given; a handle made before
/// the metrics backend was bootstrapped stays a no-op, so bootstrap before the first use.
public final class MetricHandles<Handle: Sendable>: Sendable {
    private let made = Mutex<[[String]: Handle]>([:])
    private let make: @Sendable ([String]) -> Handle

    public init(_ make: @escaping @Sendable ([String]) -> Handle) {
        self.make = make
    }

    public func callAsFunction(_ values: String...) -> Handle {
        if let handle = made.withLock({ $0[values] }) { return handle }
        let handle = make(values)
        made.withLock { $0[values] = handle }
        return handle
    }
}
