import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// One TCP (or TLS) connection to an SMTP server, driven one command at a time with async/await.
/// Knows the wire (timeouts, TLS, framing) but not the dialogue: ``SMTPSession`` does that.
///
/// Every method waits at most its timeout. Cancelling the calling task closes the connection,
/// which ends the wait with ``SMTPError/connectionLost(_:_:)``.
final class SMTPConnection: Sendable {
    private let channel: any Channel
    private let timeouts: SMTPTimeouts
    /// What ended the connection, as the channel handler saw it.
    private let firstFailure: NIOLockedValueBox<SMTPError?>

    private init(channel: any Channel, timeouts: SMTPTimeouts, firstFailure: NIOLockedValueBox<SMTPError?>) {
        self.channel = channel
        self.timeouts = timeouts
        self.firstFailure = firstFailure
    }

    /// Connects to the configured server; with `implicitTLS` set, the TLS handshake starts at
    /// once (``waitForTLSHandshake()`` waits for it).
    /// - Throws: ``SMTPError/connectionFailed(_:)`` or ``SMTPError/timedOut(_:)``.
    static func connect(
        to configuration: SMTPConfiguration,
        implicitTLS: NIOSSLContext?,
        group: any EventLoopGroup
    ) async throws -> SMTPConnection {
        let serverName = Self.serverNameForTLS(configuration.host)
        let firstFailure = NIOLockedValueBox<SMTPError?>(nil)
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(TimeAmount(configuration.timeouts.connect))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let implicitTLS {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: implicitTLS, serverHostname: serverName))
                    }
                    try channel.pipeline.syncOperations.addHandler(SMTPChannelHandler(firstFailure: firstFailure))
                }
            }
        do {
            let channel = try await bootstrap.connect(host: configuration.host, port: configuration.port).get()
            return SMTPConnection(channel: channel, timeouts: configuration.timeouts, firstFailure: firstFailure)
        } catch {
            throw SMTPError(connectError: error, host: configuration.host, port: configuration.port)
        }
    }

    /// The name to send in SNI and to check the certificate against: nil for an IP literal, whose
    /// certificate NIOSSL checks against the IP address SANs instead.
    static func serverNameForTLS(_ host: String) -> String? {
        let unbracketed = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return (try? SocketAddress(ipAddress: unbracketed, port: 0)) == nil ? host : nil
    }

    /// Whether the connection is open and has not failed (a failed one is already closing).
    var isActive: Bool { channel.isActive && firstFailure.withLockedValue { $0 } == nil }

    /// The greeting the server sends after connecting (or after the TLS handshake).
    func readGreeting() async throws -> SMTPReply {
        try await exchange(stage: .greeting) { promise in
            .command(payload: nil, stage: .greeting, timeout: TimeAmount(self.timeouts.command), isLastPlaintextReply: false, promise: promise)
        }
    }

    /// Sends one command line (CRLF is added) and returns the reply, within `timeout` (the
    /// configured command timeout by default). `isLastPlaintextReply` is for `STARTTLS` (see
    /// ``SMTPExchange``).
    func command(_ line: String, stage: SMTPStage, timeout: Duration? = nil, isLastPlaintextReply: Bool = false) async throws -> SMTPReply {
        let timeout = TimeAmount(timeout ?? timeouts.command)
        guard !line.utf8.contains(where: { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }) else {
            throw SMTPError.invalidMessage("a command line cannot contain CR or LF")
        }
        let payload = channel.allocator.buffer(string: line + "\r\n")
        return try await exchange(stage: stage) { promise in
            .command(payload: payload, stage: stage, timeout: timeout, isLastPlaintextReply: isLastPlaintextReply, promise: promise)
        }
    }

    /// Sends the dot-stuffed message including its terminating `.` line and returns the final
    /// reply, within the data-transfer timeout.
    func transferMessage(_ payload: [UInt8]) async throws -> SMTPReply {
        let buffer = channel.allocator.buffer(bytes: payload)
        return try await exchange(stage: .messageBody) { promise in
            .command(payload: buffer, stage: .messageBody, timeout: TimeAmount(self.timeouts.dataTransfer), isLastPlaintextReply: false, promise: promise)
        }
    }

    /// Puts a TLS handler in front of the SMTP handler (after the server accepted `STARTTLS`)
    /// and waits for the handshake.
    /// - Throws: ``SMTPError/tlsFailed(_:)`` when the certificate is refused.
    func upgradeToTLS(_ context: NIOSSLContext, host: String) async throws {
        let serverName = Self.serverNameForTLS(host)
        let channel = self.channel
        do {
            try await channel.eventLoop.submit {
                let handler = try NIOSSLClientHandler(context: context, serverHostname: serverName)
                try channel.pipeline.syncOperations.addHandler(handler, position: .first)
            }.get()
        } catch {
            channel.close(promise: nil)
            throw SMTPError(channelError: error, stage: .tlsHandshake)
        }
        try await waitForTLSHandshake()
    }

    /// Waits until the TLS handshake has completed, within the command timeout.
    func waitForTLSHandshake() async throws {
        let channel = self.channel
        let promise = channel.eventLoop.makePromise(of: Void.self)
        try await withTaskCancellationHandler {
            channel.writeAndFlush(SMTPExchange.tlsHandshake(timeout: TimeAmount(timeouts.command), promise: promise)).whenFailure { error in
                promise.fail(self.failure(explaining: error, stage: .tlsHandshake))
            }
            try await promise.futureResult.get()
        } onCancel: {
            channel.close(promise: nil)
        }
    }

    /// Closes the connection without a word to the server.
    func close() async {
        try? await channel.close().get()
    }

    /// Starts closing the connection without waiting, for contexts that cannot wait (`deinit`).
    func abandon() {
        channel.close(promise: nil)
    }

    /// The error for an exchange that could not be written: what closed the channel, if the
    /// handler saw it (a TLS failure, say), rather than the bare "closed channel" of the write.
    private func failure(explaining writeError: any Error, stage: SMTPStage) -> SMTPError {
        firstFailure.withLockedValue { $0 } ?? SMTPError(channelError: writeError, stage: stage)
    }

    /// Hands one exchange to the channel handler and waits for its reply. If the channel is
    /// already closed the handler never sees it, and the failed write fails it instead.
    private func exchange(stage: SMTPStage, _ make: (EventLoopPromise<SMTPReply>) -> SMTPExchange) async throws -> SMTPReply {
        let channel = self.channel
        let promise = channel.eventLoop.makePromise(of: SMTPReply.self)
        let exchange = make(promise)
        return try await withTaskCancellationHandler {
            channel.writeAndFlush(exchange).whenFailure { error in
                promise.fail(self.failure(explaining: error, stage: stage))
            }
            return try await promise.futureResult.get()
        } onCancel: {
            channel.close(promise: nil)
        }
    }
}
