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
    /// The pool's sender for email (EmailConfiguration.From, `Name <address>` or an address);
    /// nil for the server's default.
    public var sender: String?
    /// Why it is sent, in the words of Cognito's trigger sources (`SignUp`, `ResendCode`,
    /// `ForgotPassword`, `UpdateUserAttribute`, `VerifyUserAttribute`, `AdminCreateUser`), and
    /// the app client it was sent for: what a pool's CustomEmailSender/CustomSMSSender function
    /// is told. Not part of what channels send.
    public var occasion: String?
    public var clientId: String?

    enum CodingKeys: String, CodingKey {
        case poolId, username, medium, destination, subject, body, code, purpose, sender
    }

    public init(poolId: String, username: String, medium: DeliveryMediumType, destination: String,
                subject: String?, body: String, code: String?, purpose: String, sender: String? = nil,
                occasion: String? = nil, clientId: String? = nil) {
        self.poolId = poolId
        self.username = username
        self.medium = medium
        self.destination = destination
        self.subject = subject
        self.body = body
        self.code = code
        self.purpose = purpose
        self.sender = sender
        self.occasion = occasion
        self.clientId = clientId
    }
}

/// A channel that carries messages to users (SMTP, a webhook, the outbox): one attempt per
/// call. `DeliveryQueue` calls it, after the transaction that queued the message committed,
/// and retries what fails.
///
/// Contract: returns once the message is accepted by the channel; throws `DeliveryFailure`
/// saying whether trying again later can help (any other error counts as temporary).
public protocol MessageDelivery: Sendable {
    func deliver(_ message: OutboundMessage) async throws
}

/// A channel whose delivery is a write to a store (the outbox). When that store is the delivery
/// queue's, a message goes to the channel in the transaction that made its code, unless the
/// pool has a function that may rewrite or take it after the commit (then it is queued, and the
/// queue delivers it and drops it from the queue in one transaction).
///
/// Contract: `deliver(_:in:)` writes the message with `transaction` (which may still roll
/// back) and nothing else; `delivered(_:)` is called once that transaction committed.
public protocol StoreMessageDelivery: MessageDelivery {
    var store: any Store { get }
    func deliver(_ message: OutboundMessage, in transaction: any StoreTransaction) async throws
    func delivered(_ message: OutboundMessage)
}

/// Why a channel did not take a message.
public struct DeliveryFailure: Error, CustomStringConvertible {
    /// True when trying again cannot help (an address the server refuses, a configuration
    /// error); false for timeouts, unreachable servers and 4xx replies.
    public var isPermanent: Bool
    /// What happened, without the message's text or code.
    public var reason: String

    public init(isPermanent: Bool, reason: String) {
        self.isPermanent = isPermanent
        self.reason = reason
    }

    public var description: String { reason }
}

/// The channel for each medium.
public struct DeliveryChannels: Sendable {
    public var email: any MessageDelivery
    public var sms: any MessageDelivery

    public init(email: any MessageDelivery, sms: any MessageDelivery) {
        self.email = email
        self.sms = sms
    }

    /// One channel for both media.
    public init(_ channel: any MessageDelivery) { self.init(email: channel, sms: channel) }

    func channel(for medium: DeliveryMediumType) -> any MessageDelivery { medium == .email ? email : sms }
}

/// The outbox: every message is kept in the store until it expires, readable over
/// `GET /_dev/outbox` (dev mode) and with `cognate outbox`; the log names its recipient
/// (masked) and purpose, never its text.
///
/// Contract: with `keepsSecrets` (dev mode) a message is kept as sent, codes and temporary
/// passwords included, so developers can read them; without it (production) the code is
/// blanked out of the stored subject and body and not stored at all — nothing in the outbox
/// lets its reader sign in as someone else.
public struct OutboxDelivery: StoreMessageDelivery {
    public static let defaultRetention: TimeInterval = 86_400
    public let store: any Store
    let time: any TimeSource
    let keepsSecrets: Bool
    let retention: TimeInterval
    let log: @Sendable (String) -> Void

    public init(store: any Store, time: any TimeSource = SystemTime(), keepsSecrets: Bool,
                retention: TimeInterval = OutboxDelivery.defaultRetention, log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.time = time
        self.keepsSecrets = keepsSecrets
        self.retention = retention
        self.log = log
    }

    public func deliver(_ message: OutboundMessage) async throws {
        try await store.write { try await deliver(message, in: $0) }
        delivered(message)
    }

    public func deliver(_ message: OutboundMessage, in transaction: any StoreTransaction) async throws {
        let now = time.now
        let kept = keepsSecrets ? message : message.withoutSecret()
        try await transaction.appendOutboxMessage(kept, at: now, expiresAt: now + retention)
    }

    public func delivered(_ message: OutboundMessage) {
        log("outbox: \(message.medium.rawValue) to \(message.maskedDestination) [\(message.purpose)] in \(message.poolId)")
    }
}

extension OutboundMessage {
    /// The message with its code (or temporary password) blanked out and dropped.
    public func withoutSecret() -> OutboundMessage {
        guard let code, !code.isEmpty else { return self }
        var copy = self
        let blank = String(repeating: "*", count: 6)
        copy.body = body.replacingEvery(code, with: blank)
        copy.subject = subject?.replacingEvery(code, with: blank)
        copy.code = nil
        return copy
    }

    /// The destination as CodeDeliveryDetails show it (`a***@e***`, `+*******1234`).
    public var maskedDestination: String {
        CodeDestination.mask(destination, attribute: medium == .email ? "email" : "phone_number")
    }
}
