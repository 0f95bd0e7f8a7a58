/// Every failure of ``SMTPClient`` and ``EmailMessage``. ``isTransient`` tells a delivery queue
/// whether to try the same message again later (4xx replies, timeouts, lost connections) or to
/// give up on it (5xx replies, TLS and authentication problems, invalid messages or settings).
///
/// No case ever holds the SMTP password: replies are the server's text, reasons are the
/// client's own wording.
public enum SMTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered `reply` where another code was expected: 4xx is transient, 5xx
    /// permanent (an unknown recipient, `535` authentication refused, …); any other code means
    /// the server is off-protocol and counts as transient.
    case rejected(SMTPReply, stage: SMTPStage)
    /// No reply, or no progress, within the configured timeout. Transient.
    case timedOut(SMTPStage)
    /// The TCP connection could not be made (refused, unreachable, name not resolved). Transient.
    case connectionFailed(String)
    /// The server closed or reset the connection in the middle of `stage`. Transient.
    case connectionLost(SMTPStage, String)
    /// The server sent something that is not SMTP (a malformed or over-long reply, data nobody
    /// asked for, plaintext after `STARTTLS`); the connection was closed. Transient.
    case protocolViolation(String)
    /// The TLS handshake failed, usually because the certificate is not trusted or does not
    /// name the host. Permanent.
    case tlsFailed(String)
    /// `security` is `.startTLS` but the server does not offer it: nothing was sent. Permanent.
    case startTLSNotOffered
    /// Credentials are configured but the server offers neither `AUTH PLAIN` nor `AUTH LOGIN`
    /// (it offers `offeredMechanisms`). Permanent.
    case authenticationNotOffered(offeredMechanisms: [String])
    /// The message exceeds the size the server declared in its `EHLO` reply. Permanent.
    case messageTooLarge(size: Int, limit: Int)
    /// An address, header or other part of an ``EmailMessage`` cannot be sent safely, such as
    /// a line break in a header value. Permanent.
    case invalidMessage(String)
    /// The ``SMTPConfiguration`` cannot work (bad port, unreadable CA file, …). Permanent.
    case invalidConfiguration(String)
    /// ``SMTPClient/shutdown()`` was called; the message was not attempted. Transient: another
    /// client (after a restart) can send it.
    case clientShutDown

    public enum Classification: Sendable, Hashable {
        /// Try the same message again later.
        case transient
        /// Trying again will fail the same way.
        case permanent
    }

    public var classification: Classification {
        switch self {
        case .rejected(let reply, _):
            reply.isPermanentFailure ? .permanent : .transient
        case .timedOut, .connectionFailed, .connectionLost, .protocolViolation, .clientShutDown:
            .transient
        case .tlsFailed, .startTLSNotOffered, .authenticationNotOffered, .messageTooLarge, .invalidMessage, .invalidConfiguration:
            .permanent
        }
    }

    public var isTransient: Bool { classification == .transient }
    public var isPermanent: Bool { classification == .permanent }

    /// The server's reply, for ``rejected(_:stage:)``.
    public var reply: SMTPReply? {
        if case .rejected(let reply, _) = self { return reply }
        return nil
    }

    public var description: String {
        switch self {
        case .rejected(let reply, let stage): "SMTP server rejected \(stage): \(reply)"
        case .timedOut(let stage): "SMTP \(stage) timed out"
        case .connectionFailed(let reason): "could not connect to the SMTP server: \(reason)"
        case .connectionLost(let stage, let reason): "SMTP connection lost during \(stage): \(reason)"
        case .protocolViolation(let reason): "SMTP protocol violation by the server: \(reason)"
        case .tlsFailed(let reason): "TLS with the SMTP server failed: \(reason)"
        case .startTLSNotOffered: "the SMTP server does not offer STARTTLS, which the configuration requires; nothing was sent"
        case .authenticationNotOffered(let offered):
            "the SMTP server offers no supported AUTH mechanism (PLAIN, LOGIN); it offers: \(offered.isEmpty ? "none" : offered.joined(separator: " "))"
        case .messageTooLarge(let size, let limit): "the message (\(size) bytes) exceeds the SMTP server's limit of \(limit) bytes"
        case .invalidMessage(let reason): "invalid email message: \(reason)"
        case .invalidConfiguration(let reason): "invalid SMTP configuration: \(reason)"
        case .clientShutDown: "the SMTP client was shut down"
        }
    }
}
