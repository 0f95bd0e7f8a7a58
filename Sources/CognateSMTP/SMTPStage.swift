/// The step of the SMTP dialogue during which something went wrong; part of every
/// ``SMTPError`` that happens on the wire.
public enum SMTPStage: Sendable, Hashable, CustomStringConvertible {
    case connect
    case greeting
    case ehlo
    case startTLS
    /// The TLS handshake (implicit TLS, or after `STARTTLS`).
    case tlsHandshake
    case authentication
    case mailFrom
    /// `RCPT TO` for this recipient address.
    case recipient(String)
    /// The `DATA` command itself, before the message is sent.
    case data
    /// Sending the message and waiting for the server to accept it. A failure here other than
    /// a reply may come after the server stored the message: a retry can deliver it twice.
    case messageBody
    case reset
    case quit

    public var description: String {
        switch self {
        case .connect: "connect"
        case .greeting: "greeting"
        case .ehlo: "EHLO"
        case .startTLS: "STARTTLS"
        case .tlsHandshake: "TLS handshake"
        case .authentication: "AUTH"
        case .mailFrom: "MAIL FROM"
        case .recipient(let address): "RCPT TO <\(address)>"
        case .data: "DATA"
        case .messageBody: "message body"
        case .reset: "RSET"
        case .quit: "QUIT"
        }
    }
}
