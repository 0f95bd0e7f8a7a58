import CognateProtocol
import Foundation

/// A code and its message, to send once the transaction that stored both committed.
struct PendingCode: Sendable {
    var user: UserRecord
    var destination: CodeDestination
    var code: String
    var purpose: CodePurpose
    /// The message that carries it (`DeliveryQueue.enqueue`).
    var message: PendingMessage

    var occasion: MessageOccasion {
        message.message.occasion.flatMap(MessageOccasion.init(rawValue:)) ?? MessageOccasion(purpose: purpose)
    }
}
