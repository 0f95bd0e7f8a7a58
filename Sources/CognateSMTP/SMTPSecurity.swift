/// How the connection to the SMTP server is protected.
public enum SMTPSecurity: Sendable, Hashable {
    /// Plain TCP for the whole session (typically port 25 or 2525). Credentials, if configured,
    /// and the message travel in clear: only for a relay on a trusted network or loopback.
    case none

    /// Plain TCP upgraded with `STARTTLS` before anything else is sent (typically port 587).
    ///
    /// Required, not opportunistic: when the server's `EHLO` reply does not offer `STARTTLS`, or
    /// the upgrade fails, the client sends neither credentials nor mail and fails with a
    /// permanent error.
    case startTLS

    /// TLS from the first byte ("SMTPS", RFC 8314, typically port 465).
    case implicitTLS

    /// The port conventionally used with this mode: 25, 587 or 465.
    public var defaultPort: Int {
        switch self {
        case .none: 25
        case .startTLS: 587
        case .implicitTLS: 465
        }
    }

    /// Whether the session is encrypted before `AUTH` and `MAIL FROM` are sent.
    var encrypts: Bool { self != .none }
}
