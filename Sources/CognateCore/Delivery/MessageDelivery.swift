import CognateProtocol
import Foundation

/// A message to a user: a code, an invitation, a notice.
public struct OutboundMessage: Sendable, Equatable, Encodable {
    public var poolId: String
    public var username: String
    public var medium: DeliveryMediumType
    /// The address in clear (email or E.164 phone number).
    public var destination: String
    public var subject: String?
    public var body: String
    public var code: String?
    /// Why it was sent (`signUp`, `forgotPassword`, `verify:email` …).
    public var purpose: String

    public init(poolId: String, username: String, medium: DeliveryMediumType, destination: String,
                subject: String?, body: String, code: String?, purpose: String) {
        self.poolId = poolId
        self.username = username
        self.medium = medium
        self.destination = destination
        self.subject = subject
        self.body = body
        self.code = code
        self.purpose = purpose
    }
}

/// Sends messages to users. Called after the transaction that created the message's code has
/// committed; a failure reaches the caller as CodeDeliveryFailureException and the code stays
/// valid (the user can ask for it again).
public protocol MessageDelivery: Sendable {
    func deliver(_ message: OutboundMessage) async throws
}

/// Dev-mode delivery: every message is logged and kept in the store's outbox, readable over
/// `GET /_dev/outbox` and with `cognate outbox`.
public struct OutboxDelivery: MessageDelivery {
    let store: any Store
    let time: any TimeSource
    let log: @Sendable (String) -> Void

    public init(store: any Store, time: any TimeSource = SystemTime(), log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.time = time
        self.log = log
    }

    public func deliver(_ message: OutboundMessage) async throws {
        let now = time.now
        try await store.write { try await $0.appendOutboxMessage(message, at: now) }
        log("outbox: \(message.medium.rawValue) to \(message.destination) [\(message.purpose)]: \(message.body)")
    }
}
