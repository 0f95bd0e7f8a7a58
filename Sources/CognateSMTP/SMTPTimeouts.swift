/// The time limits that bound every network wait of an ``SMTPClient``; none is ever unbounded.
public struct SMTPTimeouts: Sendable, Hashable {
    /// Establishing the TCP connection (for each address the host name resolves to).
    public var connect: Duration
    /// Waiting for the reply to each command, and for the server's greeting; also bounds a TLS
    /// handshake, which must finish before the reply that follows it.
    public var command: Duration
    /// Sending the message after `DATA` was accepted and receiving the final reply.
    public var dataTransfer: Duration

    /// RFC 5321 §4.5.3.2 suggests minutes; these are shorter so a dead server frees a delivery
    /// worker soon: 10 s to connect, 60 s per command, 120 s for the message.
    public init(connect: Duration = .seconds(10), command: Duration = .seconds(60), dataTransfer: Duration = .seconds(120)) {
        self.connect = connect
        self.command = command
        self.dataTransfer = dataTransfer
    }
}
