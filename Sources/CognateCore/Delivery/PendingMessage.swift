import Foundation

/// A message made in a write transaction, to send once that transaction committed
/// (`DeliveryQueue.enqueue`, then `sendNow`).
struct PendingMessage: Sendable {
    /// Where a message waits for its commit.
    enum Place: Sendable {
        /// In the delivery queue, claimed for the first attempt (`createdAt` starts its
        /// give-up clock).
        case queue(id: Int64, createdAt: Date)
        /// Already taken, in the transaction that made it, by a channel that writes to the same
        /// store (the outbox): nothing is left to send.
        case takenInTransaction(by: any StoreMessageDelivery)
    }

    var message: OutboundMessage
    var place: Place
}
