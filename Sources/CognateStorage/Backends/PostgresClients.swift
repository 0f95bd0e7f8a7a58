import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// PostgresNIO connection pools, one per event loop of NIO's shared group (the loops the HTTP
/// server's connections run on): a statement of a request handled on its connection's event
/// loop (`EventLoopBoundChannel`) goes out on a connection of that same loop, so neither the
/// query nor its answer crosses to another thread. A call from elsewhere (the cooperative pool,
/// where sign-ins do their cryptography) takes the pools in turn.
///
/// The node's connections are shared out among the pools, exactly (with fewer connections
/// than loops, some loops have no pool of their own and take the others in turn).
final class PostgresClients: Sendable {
    let all: [PostgresClient]
    private let byLoop: [ObjectIdentifier: PostgresClient]
    private let turn = Atomic<Int>(0)
    /// How many pools `run()` has started, and who waits for all of them.
    private let started = Mutex<(count: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))

    init(configuration: PostgresClient.Configuration, connections: Int, logger: Logger,
         group: MultiThreadedEventLoopGroup = .singleton) {
        let loops = Array(group.makeIterator().prefix(max(1, connections)))
        let clients = loops.enumerated().map { index, loop in
            var configuration = configuration
            let share = connections / loops.count + (index < connections % loops.count ? 1 : 0)
            configuration.options.maximumConnections = share
            configuration.options.minimumConnections = share
            return PostgresClient(configuration: configuration, eventLoopGroup: loop, backgroundLogger: logger)
        }
        self.all = clients
        self.byLoop = Dictionary(uniqueKeysWithValues: zip(loops.map { ObjectIdentifier($0) }, clients))
    }

    /// The pool of the event loop this runs on, or the next in turn.
    var current: PostgresClient {
        if let loop = MultiThreadedEventLoopGroup.currentEventLoop, let client = byLoop[ObjectIdentifier(loop)] {
            return client
        }
        return all[turn.add(1, ordering: .relaxed).oldValue % all.count]
    }

    /// Runs every pool until the task is cancelled.
    func run() async {
        await withDiscardingTaskGroup { group in
            for client in all {
                group.addTask {
                    self.markStarted()
                    // Straight on into run(), whose first step marks the pool running: before a
                    // waiter that markStarted woke can be scheduled on another thread.
                    await client.run()
                }
            }
        }
    }

    /// Returns once `run()` has started every pool. A lease before that still waits for the
    /// pool, but PostgresNIO logs a warning for it (the CLI printed it on its standard error).
    func waitUntilRunning() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let running = started.withLock { state in
                if state.count == all.count { return true }
                state.waiting.append(continuation)
                return false
            }
            if running { continuation.resume() }
        }
    }

    private func markStarted() {
        let waiting = started.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            guard state.count == all.count else { return [] }
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
