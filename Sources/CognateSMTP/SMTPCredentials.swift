/// A user name and password for SMTP `AUTH`.
///
/// The client picks `AUTH PLAIN` when the server's `EHLO` reply offers it, else `AUTH LOGIN`;
/// neither sends anything but this user name and password (base64-encoded, not encrypted: use
/// a TLS security mode). The password never appears in descriptions, logs or errors.
public struct SMTPCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    public let username: String
    public let password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    public var description: String { "SMTPCredentials(username: \(username), password: <redacted>)" }
    public var debugDescription: String { description }
}
