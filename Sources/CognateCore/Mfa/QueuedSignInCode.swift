import CognateProtocol
import Foundation

/// A code message queued by a sign-in's transaction, to send once it committed.
struct QueuedSignInCode: Sendable {
    var message: PendingMessage
    var user: UserRecord
}
