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
/// A message for the outbox (a table of the same store) skips the queue when nothing may change
/// it after the commit: the outbox takes it in the transaction that made its code.
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
    /// When the medium's channel writes to this store (the outbox) and the pool has no function
    /// that may rewrite or take the message after the commit (CustomMessage, a custom sender),
    /// the channel takes it right here instead: one write less, and the message commits or
    /// rolls back with its code.
    func enqueue(_ message: OutboundMessage, pool: PoolRecord, in transaction: any StoreTransaction) async throws
        -> PendingMessage
    {
        if let channel = storeChannel(for: message.medium), !Self.mayChangeAfterCommit(message, pool: pool) {
            try await channel.deliver(message, in: transaction)
            return PendingMessage(message: message, place: .takenInTransaction(by: channel))
        }
        let now = time.now
        let id = try await transaction.enqueueMessage(message, at: now, heldUntil: now + Self.claimHold)
        return PendingMessage(message: message, place: .queue(id: id, createdAt: now))
    }

    /// Sends messages made by `enqueue` now (their transaction has committed). Throws
    /// CodeDeliveryFailureException when one could not be sent; what can be retried stays queued.
    func sendNow(_ messages: [PendingMessage]) async throws {
        var failure: DeliveryFailure?
        for pending in messages {
            switch pending.place {
            case .takenInTransaction(let channel):
                channel.delivered(pending.message)
                ServiceMetrics.messageSent(medium: pending.message.medium, custom: false)
            case .queue(let id, let createdAt):
                let queued = QueuedMessage(id: id, message: pending.message, attempts: 1, createdAt: createdAt)
                if let error = await send(queued) { failure = failure ?? error }
            }
        }
        if let failure {
            throw CognitoError(.codeDeliveryFailure, "Unable to deliver the message: \(failure.reason)")
        }
    }

    /// Drops queued messages made by `enqueue` that will not be sent (the request failed after
    /// its commit). Best effort: one left behind is sent by the retry loop once its hold ends.
    func discard(_ messages: [PendingMessage]) async {
        let ids = messages.compactMap { pending -> Int64? in
            if case .queue(let id, _) = pending.place { return id } else { return nil }
        }
        guard !ids.isEmpty else { return }
        try? await store.write { transaction in
            for id in ids { try await transaction.removeMessage(id: id) }
        }
    }

    /// True when the pool has a function that may rewrite `message` (CustomMessage) or carry
    /// it instead of the server's channel (CustomEmailSender/CustomSMSSender) after the commit.
    private static func mayChangeAfterCommit(_ message: OutboundMessage, pool: PoolRecord) -> Bool {
        let functions = pool.settings.lambdaConfig
        return Trigger.customMessage.arn(in: functions) != nil
            || CustomSenders.trigger(for: message.medium).arn(in: functions) != nil
    }

    /// The medium's channel when it writes to this queue's store.
    private func storeChannel(for medium: DeliveryMediumType) -> (any StoreMessageDelivery)? {
        guard let local = channels.channel(for: medium) as? any StoreMessageDelivery,
              local.store as AnyObject === store as AnyObject
        else { return nil }
        return local
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
            if !custom, let local = storeChannel(for: message.medium) {
                try await store.write { transaction in
                    try await local.deliver(message, in: transaction)
                    try await transaction.removeMessage(id: id)
                }
                local.delivered(message)
            } else {
                if !custom { try await channels.channel(for: message.medium).deliver(message) }
                try? await store.removeMessage(id: id)
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
            try? await store.removeMessage(id: id)
        } else {
            let delay = Self.retryDelays[min(queued.attempts - 1, Self.retryDelays.count - 1)]
            log("delivery: \(subject) failed (\(failure.reason)); next attempt in \(Int(delay)) s")
            try? await store.write { try await $0.rescheduleMessage(queued, at: now + delay, error: failure.reason) }
        }
        return failure
    }
}
