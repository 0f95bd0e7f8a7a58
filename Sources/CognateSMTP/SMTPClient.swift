import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// Sends ``EmailMessage``s through one SMTP server.
///
/// - **One connection.** A client opens at most one connection at a time. Messages sent
///   concurrently take turns on it in call order; run several clients for parallel delivery.
/// - **Reuse.** After a message the connection stays open for
///   ``SMTPConfiguration/idleConnectionTimeout`` and the next message reuses it after `RSET`.
///   When the server closed it meanwhile, or `RSET` fails, the client reconnects once, before
///   sending anything of the message; then it closes it with `QUIT`.
/// - **Errors.** Everything thrown is an ``SMTPError`` (see ``SMTPError/isTransient``), or
///   `CancellationError` when the calling task was cancelled (which closes the connection).
///   No call waits longer than the configured timeouts allow.
/// - **Lifetime.** Call ``shutdown()`` before the program (or the event loop group) ends; it
///   waits for the message in progress, then says `QUIT`. A client that is released without it
///   closes its connection without `QUIT`.
public actor SMTPClient {
    public nonisolated let configuration: SMTPConfiguration
    private let tlsContext: NIOSSLContext?
    private let group: any EventLoopGroup
    private let logger: Logger
    private let gate = SerialGate()
    private var session: SMTPSession?
    private var idleTimer: Task<Void, Never>?
    /// Changes whenever the connection is used, so an idle timer that fires late does nothing.
    private var idleGeneration = 0
    private var isShutDown = false

    /// Checks the configuration and loads TLS settings; does not connect.
    ///
    /// - Parameter eventLoopGroup: where the connection's I/O runs; NIO's shared singleton by
    ///   default, which needs no shutdown.
    /// - Throws: ``SMTPError/invalidConfiguration(_:)``.
    public init(
        configuration: SMTPConfiguration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "cognate.smtp")
    ) throws {
        try configuration.validate()
        self.configuration = configuration
        self.tlsContext = configuration.security.encrypts ? try configuration.tlsTrust.makeClientContext() : nil
        self.group = eventLoopGroup
        var logger = logger
        logger[metadataKey: "smtp.server"] = "\(configuration.host):\(configuration.port)"
        self.logger = logger
    }

    deinit {
        idleTimer?.cancel()
        session?.abandon()
    }

    /// Delivers `message` to all of its recipients, or throws.
    ///
    /// Returns when the server accepted the message (`250` after the data). A rejected
    /// recipient fails the whole message; nothing is sent to the others.
    /// - Throws: ``SMTPError`` (``SMTPError/isTransient`` tells whether to try again later),
    ///   or `CancellationError`.
    public func send(_ message: EmailMessage) async throws {
        let rendered = Array(message.rendered().utf8)
        do {
            try await deliver(rendered, from: message.from.address, to: message.to.map(\.address))
        } catch where Task.isCancelled {
            // The connection was closed to stop waiting; what it reported is not the cause.
            throw CancellationError()
        }
    }

    private func deliver(_ rendered: [UInt8], from sender: String, to recipients: [String]) async throws {
        try await exclusively {
            try Task.checkCancellation()
            guard !isShutDown else { throw SMTPError.clientShutDown }
            stopIdleTimer()
            let session = try await readySession()
            do {
                try await session.deliver(rendered, from: sender, to: recipients)
            } catch {
                if !Self.leavesSessionUsable(error) { await discardSession() }
                await keepOrCloseIdleSession()
                throw error
            }
            await keepOrCloseIdleSession()
        }
    }

    /// Waits for the message in progress, closes the connection with `QUIT`, and makes every
    /// later ``send(_:)`` throw ``SMTPError/clientShutDown``. Safe to call more than once.
    public func shutdown() async {
        isShutDown = true
        stopIdleTimer()
        await exclusively { await discardSession() }
    }

    /// Runs `body` holding the gate, so sessions are used by one message at a time.
    private func exclusively<T>(_ body: () async throws -> T) async rethrows -> T {
        await gate.acquire()
        do {
            let result = try await body()
            await gate.release()
            return result
        } catch {
            await gate.release()
            throw error
        }
    }

    /// The open session after a successful `RSET`, or a new one when there is none or the old
    /// one no longer answers.
    private func readySession() async throws -> SMTPSession {
        if let session {
            if session.isActive {
                do {
                    try await session.reset()
                    return session
                } catch {
                    logger.debug("SMTP connection not reusable, reconnecting", metadata: ["smtp.error": "\(error)"])
                }
            }
            await discardSession()
        }
        let session = try await SMTPSession.open(configuration: configuration, tlsContext: tlsContext, group: group, logger: logger)
        self.session = session
        return session
    }

    /// Whether the connection can carry the next message after `error`: only after a refusal
    /// by a server that is not closing the connection (421), or a refusal before anything was sent.
    private static func leavesSessionUsable(_ error: any Error) -> Bool {
        switch error as? SMTPError {
        case .rejected(let reply, _): reply.code != 421 && (reply.isTransientFailure || reply.isPermanentFailure)
        case .messageTooLarge: true
        default: false
        }
    }

    private func discardSession() async {
        guard let session else { return }
        self.session = nil
        await session.close()
    }

    /// After a message: closes the session at once when reuse is off, else arms the idle timer.
    private func keepOrCloseIdleSession() async {
        guard session != nil else { return }
        guard configuration.idleConnectionTimeout > .zero else {
            await discardSession()
            return
        }
        let generation = idleGeneration
        let delay = configuration.idleConnectionTimeout
        idleTimer = Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            await self?.closeIdleSession(generation: generation)
        }
    }

    private func stopIdleTimer() {
        idleTimer?.cancel()
        idleTimer = nil
        idleGeneration += 1
    }

    private func closeIdleSession(generation: Int) async {
        await exclusively {
            guard generation == idleGeneration else { return }
            logger.debug("SMTP connection idle, closing")
            await discardSession()
        }
    }
}
