import Foundation

/// A message waiting to be sent, as the queue keeps it.
public struct QueuedMessage: Sendable, Equatable {
    public var id: Int64
    public var message: OutboundMessage
    /// Attempts so far, this one included once claimed.
    public var attempts: Int
    public var createdAt: Date

    public init(id: Int64, message: OutboundMessage, attempts: Int, createdAt: Date) {
        self.id = id
        self.message = message
        self.attempts = attempts
        self.createdAt = createdAt
    }
}

/// The durable queue of messages to users (see `DeliveryQueue`): a message is written in the
/// transaction that made its code, and removed once sent or given up.
public protocol MessageQueueRepository: Sendable {
    /// Stores a message already claimed by its sender for its first attempt (due again at
    /// `heldUntil`, should that attempt never report back); returns its id.
    func enqueueMessage(_ message: OutboundMessage, at date: Date, heldUntil: Date) async throws -> Int64
    /// Takes the message for an attempt if it is due at `now`: counts the attempt and keeps it
    /// from other senders until `heldUntil` (so a node that dies mid-send does not lose it).
    /// Nil when it is not due, or gone. Of concurrent claims, exactly one succeeds.
    func claimMessage(id: Int64, now: Date, heldUntil: Date) async throws -> QueuedMessage?
    /// Ids of the messages due at `now`, oldest first.
    func dueMessages(now: Date, limit: Int) async throws -> [Int64]
    /// Makes the message due again at `date`, with its text as last attempted (a CustomMessage
    /// function may have rewritten it), noting why the attempt failed.
    func rescheduleMessage(_ queued: QueuedMessage, at date: Date, error: String) async throws
    /// Removes the message (sent, or given up): its text, code included, leaves the database.
    /// One statement.
    func removeMessage(id: Int64) async throws
}
