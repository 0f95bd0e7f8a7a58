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
            for client in all { group.addTask { await client.run() } }
        }
    }
}
