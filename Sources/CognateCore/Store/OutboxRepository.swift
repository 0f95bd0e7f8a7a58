import Foundation

/// A message as the outbox keeps it: what was sent, when, and its place in the outbox.
/// Encodes flat (`{"id", "createdAt", "poolId", "destination", "code", …}`) for
/// `GET /_dev/outbox` and `cognate outbox --json`.
public struct OutboxEntry: Sendable, Equatable, Encodable {
    public var id: Int64
    public var createdAt: Date
    public var message: OutboundMessage

    public init(id: Int64, createdAt: Date, message: OutboundMessage) {
        self.id = id
        self.createdAt = createdAt
        self.message = message
    }

    enum CodingKeys: String, CodingKey { case id, createdAt }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(createdAt, forKey: .createdAt)
        try message.encode(to: encoder)
    }
}

public protocol OutboxRepository: Sendable {
    /// Keeps the message until `expiresAt` (then the sweeper deletes it).
    func appendOutboxMessage(_ message: OutboundMessage, at date: Date, expiresAt: Date) async throws
    /// Messages in the order they were sent, after `afterId`, optionally of one pool.
    func outboxMessages(poolId: String?, afterId: Int64?, limit: Int) async throws -> [OutboxEntry]
}
