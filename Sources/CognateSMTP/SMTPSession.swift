import Logging
import NIOCore
import NIOSSL

/// An established SMTP session: connected, greeted, secured as configured and authenticated,
/// ready for mail transactions. Used by one task at a time (``SMTPClient`` guarantees it).
final class SMTPSession: Sendable {
    private let connection: SMTPConnection
    private let capabilities: SMTPCapabilities
    private let logger: Logger

    private init(connection: SMTPConnection, capabilities: SMTPCapabilities, logger: Logger) {
        self.connection = connection
        self.capabilities = capabilities
        self.logger = logger
    }

    /// Connects and runs the dialogue up to the first mail transaction: greeting, `EHLO`,
    /// `STARTTLS` and `EHLO` again (`.startTLS`), `AUTH` (with credentials). With `.startTLS`,
    /// nothing but `EHLO` and `STARTTLS` is sent before the TLS handshake succeeded.
    ///
    /// On failure the connection is closed (with `QUIT` when it is still usable).
    static func open(
        configuration: SMTPConfiguration,
        tlsContext: NIOSSLContext?,
        group: any EventLoopGroup,
        logger: Logger
    ) async throws -> SMTPSession {
        let implicitTLS = configuration.security == .implicitTLS ? tlsContext : nil
        let connection = try await SMTPConnection.connect(to: configuration, implicitTLS: implicitTLS, group: group)
        do {
            if implicitTLS != nil { try await connection.waitForTLSHandshake() }
            try expect(await connection.readGreeting(), 220, stage: .greeting)
            var capabilities = try await hello(connection, as: configuration.ehloHostname)
            if configuration.security == .startTLS {
                guard capabilities.supportsStartTLS, let tlsContext else { throw SMTPError.startTLSNotOffered }
                try expect(await connection.command("STARTTLS", stage: .startTLS, isLastPlaintextReply: true), 220, stage: .startTLS)
                try await connection.upgradeToTLS(tlsContext, host: configuration.host)
                capabilities = try await hello(connection, as: configuration.ehloHostname)
            }
            if let credentials = configuration.credentials {
                guard let mechanism = SMTPAuthenticationMechanism.preferred(amongOffered: capabilities.authenticationMechanisms) else {
                    throw SMTPError.authenticationNotOffered(offeredMechanisms: capabilities.authenticationMechanisms)
                }
                try await mechanism.authenticate(credentials, on: connection)
                logger.debug("SMTP authenticated", metadata: ["smtp.auth": "\(mechanism.rawValue)"])
            }
            logger.debug("SMTP session established", metadata: ["smtp.security": "\(configuration.security)"])
            return SMTPSession(connection: connection, capabilities: capabilities, logger: logger)
        } catch {
            await quit(connection)
            throw error
        }
    }

    /// `EHLO`, falling back to `HELO` (and no extensions) for a server that does not know `EHLO`.
    private static func hello(_ connection: SMTPConnection, as name: String) async throws -> SMTPCapabilities {
        let reply = try await connection.command("EHLO \(name)", stage: .ehlo)
        if reply.isPositiveCompletion { return SMTPCapabilities(ehloReply: reply) }
        guard [500, 502].contains(reply.code) else { throw SMTPError.rejected(reply, stage: .ehlo) }
        try expect(await connection.command("HELO \(name)", stage: .ehlo), 250, stage: .ehlo)
        return .none
    }

    /// Whether the connection can carry another transaction, as far as is known without asking
    /// the server (``reset()`` asks).
    var isActive: Bool { connection.isActive }

    /// One mail transaction: `MAIL FROM`, `RCPT TO` for each recipient, `DATA` and the message.
    /// `message` is the rendered message; it is dot-stuffed here.
    ///
    /// A rejected recipient ends the transaction (no partial delivery); the session stays
    /// usable after any ``SMTPError/rejected(_:stage:)`` (the next transaction starts with
    /// ``reset()``).
    func deliver(_ message: [UInt8], from sender: String, to recipients: [String]) async throws {
        if let limit = capabilities.sizeLimit, message.count > limit {
            throw SMTPError.messageTooLarge(size: message.count, limit: limit)
        }
        let size = capabilities.sizeLimit == nil ? "" : " SIZE=\(message.count)"
        try Self.expect(await connection.command("MAIL FROM:<\(sender)>\(size)", stage: .mailFrom), 250, stage: .mailFrom)
        for recipient in recipients {
            let reply = try await connection.command("RCPT TO:<\(recipient)>", stage: .recipient(recipient))
            guard reply.code == 250 || reply.code == 251 else { throw SMTPError.rejected(reply, stage: .recipient(recipient)) }
        }
        try Self.expect(await connection.command("DATA", stage: .data), 354, stage: .data)
        let reply = try await connection.transferMessage(DotStuffing.dataPayload(message))
        try Self.expect(reply, 250, stage: .messageBody)
        logger.debug("SMTP message accepted", metadata: ["smtp.reply": "\(reply)"])
    }

    /// `RSET`: clears any transaction left by a failed ``deliver(_:from:to:)``, and proves the
    /// server still answers before a connection is reused.
    func reset() async throws {
        try Self.expect(await connection.command("RSET", stage: .reset), 250, stage: .reset)
    }

    /// `QUIT`, then closes the connection; never fails.
    func close() async {
        await Self.quit(connection)
    }

    /// Closes the connection without `QUIT` or waiting.
    func abandon() {
        connection.abandon()
    }

    /// Sends `QUIT` if the connection is open (waiting at most ``quitTimeout`` for the reply,
    /// which is not checked), then closes it.
    private static func quit(_ connection: SMTPConnection) async {
        if connection.isActive {
            _ = try? await connection.command("QUIT", stage: .quit, timeout: quitTimeout)
        }
        await connection.close()
    }

    /// A server that does not answer `QUIT` soon is not waited for: the message is already sent.
    static let quitTimeout: Duration = .seconds(5)

    private static func expect(_ reply: SMTPReply, _ code: Int, stage: SMTPStage) throws {
        guard reply.code == code else { throw SMTPError.rejected(reply, stage: stage) }
    }
}
