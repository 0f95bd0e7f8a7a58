import NIOConcurrencyHelpers
import NIOCore
import NIOTLS

/// The last handler of an SMTP client channel: frames the server's bytes into replies (bounded,
/// see ``SMTPReplyParser``) and matches each reply to the one ``SMTPExchange`` in flight,
/// failing it after its timeout.
///
/// Any failure — a timeout, a closed or reset connection, a TLS error, a malformed or
/// unsolicited reply — fails the exchange in flight and every later one with the same
/// ``SMTPError`` and closes the channel: a connection that failed once is never used again.
/// The failure is also kept in ``firstFailure``, for exchanges that reach the channel only after
/// it closed (and this handler left the pipeline).
final class SMTPChannelHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = SMTPExchange
    typealias OutboundOut = ByteBuffer

    private var parser = SMTPReplyParser()
    private var inFlight: (exchange: SMTPExchange, timeout: Scheduled<Void>)?
    /// A reply that arrived before anyone asked: only the greeting may, right after connecting.
    private var earlyGreeting: SMTPReply?
    private var hasReceivedAnyReply = false
    private var tlsHandshakeCompleted = false
    /// Between the reply to `STARTTLS` and the end of the TLS handshake, when no plaintext may come.
    private var awaitingTLSUpgrade = false
    /// The stage of the latest exchange, to name where a failure happened between exchanges.
    private var lastStage: SMTPStage = .greeting
    private var failure: SMTPError?
    private let firstFailure: NIOLockedValueBox<SMTPError?>

    init(firstFailure: NIOLockedValueBox<SMTPError?>) {
        self.firstFailure = firstFailure
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let exchange = unwrapOutboundIn(data)
        promise?.succeed()
        if let failure {
            exchange.fail(failure)
            return
        }
        guard inFlight == nil else {
            exchange.fail(.protocolViolation("internal error: a command was sent before the previous reply"))
            return
        }
        lastStage = exchange.stage
        if case .command(nil, _, _, _, let promise) = exchange, let greeting = earlyGreeting {
            earlyGreeting = nil
            promise.succeed(greeting)
            return
        }
        if case .tlsHandshake(_, let promise) = exchange, tlsHandshakeCompleted {
            promise.succeed()
            return
        }
        let timeout = context.eventLoop.assumeIsolated().scheduleTask(in: exchange.timeout) { [weak self] in
            guard let self else { return }
            self.fail(.timedOut(exchange.stage), context: context)
        }
        inFlight = (exchange, timeout)
        if case .command(let payload?, _, _, _, _) = exchange {
            context.writeAndFlush(wrapOutboundOut(payload), promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard failure == nil else { return }
        guard !awaitingTLSUpgrade else {
            fail(.protocolViolation("the server sent plaintext after accepting STARTTLS"), context: context)
            return
        }
        parser.append(unwrapInboundIn(data))
        do {
            while let reply = try parser.nextReply() {
                try deliver(reply)
            }
        } catch let error as SMTPError {
            fail(error, context: context)
        } catch {
            fail(.protocolViolation("\(error)"), context: context)
        }
    }

    private func deliver(_ reply: SMTPReply) throws {
        defer { hasReceivedAnyReply = true }
        guard let (exchange, timeout) = inFlight else {
            guard !hasReceivedAnyReply else { throw SMTPError.protocolViolation("unsolicited reply: \(reply)") }
            earlyGreeting = reply
            return
        }
        guard case .command(_, _, _, let isLastPlaintextReply, let promise) = exchange else {
            throw SMTPError.protocolViolation("reply during the TLS handshake: \(reply)")
        }
        if isLastPlaintextReply, reply.code == 220 {
            guard !parser.hasUnparsedBytes else {
                throw SMTPError.protocolViolation("the server sent more data right after accepting STARTTLS")
            }
            awaitingTLSUpgrade = true
        }
        inFlight = nil
        timeout.cancel()
        promise.succeed(reply)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event {
            tlsHandshakeCompleted = true
            awaitingTLSUpgrade = false
            if let (exchange, timeout) = inFlight, case .tlsHandshake(_, let promise) = exchange {
                inFlight = nil
                timeout.cancel()
                promise.succeed()
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(.connectionLost(inFlight?.exchange.stage ?? lastStage, "the server closed the connection"), context: context)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        fail(SMTPError(channelError: error, stage: inFlight?.exchange.stage ?? lastStage), context: context)
    }

    /// Records the first failure, fails the exchange in flight with it and closes the channel.
    private func fail(_ error: SMTPError, context: ChannelHandlerContext) {
        if failure == nil {
            failure = error
            firstFailure.withLockedValue { $0 = error }
        }
        if let (exchange, timeout) = inFlight {
            inFlight = nil
            timeout.cancel()
            exchange.fail(failure ?? error)
        }
        context.close(promise: nil)
    }
}
