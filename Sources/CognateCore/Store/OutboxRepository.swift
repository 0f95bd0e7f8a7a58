import Foundation

/// A message Cognate sent (or, in dev mode, would have sent): kept for developers to read.
public struct OutboxMessage: Sendable, Equatable, Codable {
    public var id: Int64?
    public var poolId: String
    public var username: String
    public var medium: String        // EMAIL or SMS
    public var destination: String   // the address in clear (dev outbox only)
    public var subject: String?
    public var body: String
    /// The code the message carries, for tests and tools that read the outbox.
    public var code: String?
    public var purpose: String
    public var createdAt: Date

    public init(id: Int64? = nil, poolId: String, username: String, medium: String, destination: String,
                subject: String?, body: String, code: String?, purpose: String, createdAt: Date) {
        self.id = id
        self.poolId = poolId
        self.username = username
        self.medium = medium
        self.destination = destination
        self.subject = subject
        self.body = body
        self.code = code
        self.purpose = purpose
        self.createdAt = createdAt
    }
}

public protocol OutboxRepository: Sendable {
    func appendOutboxMessage(_ message: OutboxMessage) async throws
    /// Messages in the order they were sent, after `afterId`, optionally of one pool.
    func outboxMessages(poolId: String?, afterId: Int64?, limit: Int) async throws -> [OutboxMessage]
}
