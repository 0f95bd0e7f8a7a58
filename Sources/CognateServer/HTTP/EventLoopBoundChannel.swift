import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// A child channel whose connection task runs on the event loop that serves its socket.
///
/// Hummingbird reads a request on the connection's event loop and runs the handler in a task on
/// Swift's cooperative pool; every read, every write and every resumption after an await then
/// crosses between the two threads. With the connection's task preferring the connection's own
/// event loop (`withTaskExecutorPreference`), a request is parsed, answered and written on one
/// thread. Work that must not hold up the loop's other connections (the cryptography of sign-ins)
/// leaves it explicitly: `CognitoAPIResponder` runs such operations on the cooperative pool.
///
/// Contract: whatever runs in the handler must not block (no waiting on locks held for long, no
/// blocking I/O); short synchronous work, such as a read on a pooled SQLite connection, is fine.
struct EventLoopBoundChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}

/// An event loop as a `TaskExecutor`: jobs of tasks that prefer it run on the loop's thread.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with each connection's requests handled on its event loop (public for the
    /// benchmark's HTTP floor, which must run on the same stack).
    public static func eventLoopBoundHTTP1() -> HTTPServerBuilder {
        eventLoopBoundHTTP1(wholeRequests: nil)
    }

    /// The same, with the requests `wholeRequests` takes read whole and answered on the channel.
    static func eventLoopBoundHTTP1(wholeRequests: WholeRequests?) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            EventLoopBoundChannel(base: HTTP1Channel(responder: responder, wholeRequests: wholeRequests))
        }
    }
}

extension HTTP1Channel {
    /// Hummingbird's HTTP/1.1 channel, with a ``WholeRequestHandler`` after the codec when
    /// `wholeRequests` is given.
    init(responder: @escaping HTTPChannelHandler.Responder, wholeRequests: WholeRequests?) {
        guard let wholeRequests else {
            self.init(responder: responder)
            return
        }
        self.init(
            responder: responder,
            configuration: .init(additionalChannelHandlers: [WholeRequestHandler(requests: wholeRequests)]))
    }
}
