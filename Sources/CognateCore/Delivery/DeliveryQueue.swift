import CognateProtocol
import Foundation

/// Delivery of messages through a durable queue.
///
/// Contract: a message is queued in the transaction that made its code (`enqueue`), so it is
/// never lost once that transaction committed — not by a failed channel, not by a restart.
/// Right after the commit the request tries to send it (`sendNow`): on success the message
/// leaves the database (its code with it); on failure the request answers
/// CodeDeliveryFailureException while a temporary failure stays queued and is retried with
/// growing delays (`retryDue`, every node, each message claimed by one node at a time) for up
/// to `giveUpAfter`; a permanent failure, or one past that time, is dropped and logged.
public final class DeliveryQueue: Sendable {
    /// Delay before attempt n+1 (the last repeats).
    static let retryDelays: [TimeInterval] = [10, 30, 120, 600, 1800, 3600]
    /// How long a claimed message is kept from other senders (a node that dies mid-send).
    static let claimHold: TimeInterval = 120
    static let giveUpAfter: TimeInterval = 86_400

    let store: any Store
    let channels: DeliveryChannels
    /// Pools' own senders (CustomEmailSender/CustomSMSSender), tried before `channels`.
    let customSenders: CustomSenders?
    let time: any TimeSource
    let log: @Sendable (String) -> Void
    /// Hears of every failed attempt (`gaveUp`: the message is dropped), for the pools'
    /// `userNotification` log delivery.
    let failures: @Sendable (OutboundMessage, DeliveryFailure, _ gaveUp: Bool) async -> Void

    init(store: any Store, channels: DeliveryChannels, customSenders: CustomSenders?, time: any TimeSource,
         log: @escaping @Sendable (String) -> Void,
         failures: @escaping @Sendable (OutboundMessage, DeliveryFailure, Bool) async -> Void = { _, _, _ in }) {
        self.failures = failures
        self.store = store
        self.channels = channels
        self.customSenders = customSenders
        self.time = time
        self.log = log
    }

    /// Queues `message` in `transaction`, claimed for the attempt `sendNow` makes after the commit.
    func enqueue(_ message: OutboundMessage, in transaction: any StoreTransaction) async throws -> QueuedMessage {
        let now = time.now
        let id = try await transaction.enqueueMessage(message, at: now, heldUntil: now + Self.claimHold)
        return QueuedMessage(id: id, message: message, attempts: 1, createdAt: now)
    }

    /// Sends messages queued by `enqueue` now (their transaction has committed). Throws
    /// CodeDeliveryFailureException when one could not be sent; what can be retried stays queued.
    func sendNow(_ messages: [QueuedMessage]) async throws {
        var failure: DeliveryFailure?
        for queued in messages {
            if let error = await send(queued) { failure = failure ?? error }
        }
        if let failure {
            throw CognitoError(.codeDeliveryFailure, "Unable to deliver the message: \(failure.reason)")
        }
    }

    /// Drops messages queued by `enqueue` that will not be sent (the request failed after its
    /// commit). Best effort: one left behind is sent by the retry loop once its hold ends.
    func discard(_ messages: [QueuedMessage]) async {
        try? await store.write { transaction in
            for queued in messages { try await transaction.removeMessage(id: queued.id) }
        }
    }

    /// Tries every message that is due (call about once a second); returns how many were sent.
    @discardableResult
    public func retryDue(limit: Int = 100) async throws -> Int {
        let now = time.now
        let due = try await store.read { try await $0.dueMessages(now: now, limit: limit) }
        var sent = 0
        for id in due {
            // Another node may have claimed it since: then it is theirs.
            guard let queued = try await store.write({ try await $0.claimMessage(id: id, now: now, heldUntil: now + Self.claimHold) })
            else { continue }
            if await send(queued) == nil { sent += 1 }
        }
        return sent
    }

    /// One attempt at a message this node holds: removed when sent, given up when the failure
    /// is permanent or the message too old, rescheduled otherwise. Nil when it was sent.
    private func send(_ queued: QueuedMessage) async -> DeliveryFailure? {
        let now = time.now
        let id = queued.id
        let message = queued.message
        let failure: DeliveryFailure
        do {
            let custom = try await customSenders?.deliver(message, now: now) == true
            let channel = channels.channel(for: message.medium)
            if !custom, let local = channel as? any StoreMessageDelivery, local.store as AnyObject === store as AnyObject {
                try await store.write { transaction in
                    try await local.deliver(message, in: transaction)
                    try await transaction.removeMessage(id: id)
                }
                local.delivered(message)
            } else {
                if !custom { try await channel.deliver(message) }
                try? await store.writeSingleStatement { try await $0.removeMessage(id: id) }
            }
            ServiceMetrics.messageSent(medium: message.medium, custom: custom)
            return nil
        } catch let error as DeliveryFailure {
            failure = error
        } catch {
            failure = DeliveryFailure(isPermanent: false, reason: "\(error)")
        }
        let subject = "\(message.medium.rawValue) to \(message.maskedDestination) [\(message.purpose)] in \(message.poolId)"
        let givingUp = failure.isPermanent || now.timeIntervalSince(queued.createdAt) >= Self.giveUpAfter
        await failures(message, failure, givingUp)
        if givingUp {
            log("delivery: gave up on \(subject) after \(queued.attempts) attempt(s): \(failure.reason)")
            try? await store.writeSingleStatement { try await $0.removeMessage(id: id) }
        } else {
            let delay = Self.retryDelays[min(queued.attempts - 1, Self.retryDelays.count - 1)]
            log("delivery: \(subject) failed (\(failure.reason)); next attempt in \(Int(delay)) s")
            try? await store.write { try await $0.rescheduleMessage(queued, at: now + delay, error: failure.reason) }
        }
        return failure
    }
}
