import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Answers the requests that ``WholeRequests`` takes (the Cognito API's `POST /`) on the
/// connection's channel: the request is read whole here and answered in one task, without
/// Hummingbird's per-connection async streams and response writer; every other request passes
/// on to Hummingbird unchanged. It sits after the HTTP codec and before Hummingbird's
/// connection-state handler.
///
/// Contract: responses leave in the order their requests arrived (HTTP/1.1 pipelining) —
/// while a request of its own is being answered, or one of Hummingbird's has not been answered
/// yet, the requests behind it are held and the socket is not read; while the channel is not
/// writable (a client that sends and does not read) no request of its own starts and the
/// socket is not read either, so answers never pile up in memory; a body is kept up to one
/// byte past ``WholeRequests/maxBodyBytes`` (enough for the API to refuse it as too large) and
/// the rest is dropped; a request with `Connection: close` closes the connection after its
/// answer, as Hummingbird does; a graceful shutdown closes the connection once the request in
/// hand has been answered. A parse error is passed on in turn, and Hummingbird answers it.
final class WholeRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum State {
        case idle
        /// Reading a request of its own.
        case reading(HTTPRequest, ByteBuffer)
        /// A request of its own is being answered.
        case answering
    }

    /// What arrived while a request was in hand, in order.
    private enum Held {
        case part(HTTPRequestPart)
        case error(any Error)
        /// The client closed its side (`ChannelEvent.inputClosed`): after what it sent before.
        case inputClosed(Any)
    }

    private let requests: WholeRequests
    private var state = State.idle
    /// Requests passed to Hummingbird whose response has not ended yet.
    private var passedOn = 0
    private var held = CircularBuffer<Held>()
    /// Hummingbird asked for more input while input was held.
    private var readWanted = false
    /// The server is shutting down: close once the request in hand is answered.
    private var quiescing = false
    /// A request asked to close the connection after its answer: nothing after it is taken.
    private var closing = false
    /// This handler closes the connection once its last answer is written.
    private var closeScheduled = false
    /// A request passed on asked to close the connection (Hummingbird closes it after its answer).
    private var closesAfterPassedOn = false

    /// The connection's event loop, preferred by the tasks that answer.
    private var executor: EventLoopTaskExecutor?

    init(requests: WholeRequests) {
        self.requests = requests
    }

    func handlerAdded(context: ChannelHandlerContext) {
        executor = EventLoopTaskExecutor(context.eventLoop)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        guard held.isEmpty, take(part, context: context) else {
            held.append(.part(part))
            return
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard held.isEmpty, !isAnswering else {
            held.append(.error(error))
            return
        }
        state = .idle  // a request being read ends with the error; Hummingbird answers it
        context.fireErrorCaught(error)
    }

    func read(context: ChannelHandlerContext) {
        guard held.isEmpty, !isAnswering, context.channel.isWritable else {
            readWanted = true
            return
        }
        context.read()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Only Hummingbird's responses pass here: this handler's own go out below it.
        let ended: Bool
        if case .end = unwrapOutboundIn(data) { ended = true } else { ended = false }
        context.write(data, promise: promise)
        // A parse error's answer ends a request that was never passed on.
        if ended, passedOn > 0 {
            passedOn -= 1
            if passedOn == 0 { release(context: context) }
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        context.fireChannelWritabilityChanged()
        if context.channel.isWritable { release(context: context) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            quiescing = true
            guard held.isEmpty, isIdle, passedOn == 0 else { return }
        }
        if case .some(.inputClosed) = event as? ChannelEvent {
            guard held.isEmpty, !isAnswering else {
                held.append(.inputClosed(event))
                return
            }
            state = .idle  // a request cut short is dropped
        }
        context.fireUserInboundEventTriggered(event)
    }

    private var isAnswering: Bool {
        if case .answering = state { return true }
        return false
    }

    private var isIdle: Bool {
        if case .idle = state { return true }
        return false
    }

    /// Handles `part` now, or returns false when it must wait (held until then).
    private func take(_ part: HTTPRequestPart, context: ChannelHandlerContext) -> Bool {
        if closing { return true }  // after a request that closes the connection: dropped
        switch (state, part) {
        case (.answering, _):
            return false
        case (.idle, .head(let head)) where requests.takes(head):
            guard passedOn == 0, context.channel.isWritable else { return false }
            state = .reading(head, context.channel.allocator.buffer(capacity: 0))
        case (.reading(let head, var body), .body(let bytes)):
            let room = requests.maxBodyBytes + 1 - body.readableBytes
            if room > 0 {
                var bytes = bytes
                if var kept = bytes.readSlice(length: min(room, bytes.readableBytes)) { body.writeBuffer(&kept) }
            }
            state = .reading(head, body)
        case (.reading(let head, let body), .end):
            state = .answering
            answer(head, body: body, context: context)
        case (_, .head(let head)):
            if head.headerFields[.connection]?.lowercased() == "close" { closesAfterPassedOn = true }
            passedOn += 1
            context.fireChannelRead(wrapInboundOut(part))
        default:
            context.fireChannelRead(wrapInboundOut(part))
        }
        return true
    }

    private func answer(_ request: HTTPRequest, body: ByteBuffer, context: ChannelHandlerContext) {
        let closes = request.headerFields[.connection]?.lowercased() == "close"
        let requests = self.requests
        let channel = context.channel
        let loop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        requests.inFlight.begin()
        Task(executorPreference: executor) {
            let (head, body) = await requests.answer(request, body: body, channel: channel)
            requests.inFlight.end()
            loop.execute {
                let (handler, context) = bound.value
                handler.finish(head: head, body: body, closes: closes, context: context)
            }
        }
    }

    private func finish(head: HTTPResponse, body: ByteBuffer, closes: Bool, context: ChannelHandlerContext) {
        state = .idle
        var inputClosed: [Any] = []
        if closes || quiescing {
            // Decided before writing: a write may re-enter through a writability change.
            closing = true
            inputClosed = takeInputClosed()
        }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if body.readableBytes > 0 { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        guard closing else {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            release(context: context)
            return
        }
        // Only the output is closed, after the answer is written (as Hummingbird closes it):
        // a full close would drop unwritten bytes, and unread input would reset the connection.
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        let quiescing = self.quiescing
        closeScheduled = true
        written.futureResult.assumeIsolated().whenComplete { _ in
            context.close(mode: quiescing ? .all : .output, promise: nil)
            for event in inputClosed { context.fireUserInboundEventTriggered(event) }
        }
    }

    /// Empties what is held (nothing more is taken), keeping the client's close to pass on.
    private func takeInputClosed() -> [Any] {
        let events = held.compactMap { held -> Any? in
            if case .inputClosed(let event) = held { return event }
            return nil
        }
        held.removeAll()
        return events
    }

    /// Takes what was held until something must wait again; reads again when nothing is held.
    private func release(context: ChannelHandlerContext) {
        if closesAfterPassedOn, passedOn == 0 {
            closing = true  // Hummingbird closes the connection after that answer
        }
        if (quiescing || closing), isIdle, passedOn == 0 {
            let inputClosed = takeInputClosed()
            if quiescing, !closeScheduled { context.close(promise: nil) }
            for event in inputClosed { context.fireUserInboundEventTriggered(event) }
            return
        }
        var took = false
        loop: while let next = held.first {
            switch next {
            case .part(let part):
                guard take(part, context: context) else { break loop }
            case .error(let error):
                guard !isAnswering else { break loop }
                state = .idle
                context.fireErrorCaught(error)
            case .inputClosed(let event):
                guard !isAnswering else { break loop }
                state = .idle
                context.fireUserInboundEventTriggered(event)
            }
            held.removeFirst()
            took = true
        }
        if took { context.fireChannelReadComplete() }
        if held.isEmpty, !isAnswering, readWanted, context.channel.isWritable {
            readWanted = false
            context.read()
        }
    }
}
