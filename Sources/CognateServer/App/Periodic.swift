import Logging
import ServiceLifecycle

/// Background work a node repeats every `interval` seconds until it shuts down (key refresh,
/// the sweep of expired records). A failed run is logged and retried at the next interval.
struct Periodic: Service {
    let name: String
    let interval: Double
    let logger: Logger
    let work: @Sendable () async throws -> Void

    init(_ name: String, every interval: Double, logger: Logger, _ work: @escaping @Sendable () async throws -> Void) {
        self.name = name
        self.interval = interval
        self.logger = logger
        self.work = work
    }

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(interval)) }
                try await work()
            } catch is CancellationError {
                return
            } catch {
                logger.warning("\(name) failed: \(error)")
            }
        }
    }
}
