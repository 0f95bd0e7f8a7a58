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

extension IdentityService {
    /// Issues a code for `purpose` to `destination` and stores it in `transaction` (replacing
    /// the user's earlier code of that purpose, whose wrong guesses of the last hour carry
    /// over), within the pool's hourly limit of messages per address, and queues its message
    /// in the same transaction; `pendingValue` is a new address held until verified. Lifetimes: one hour for
    /// password resets, `confirmationCodeLifetime` (24 h) for the rest. `occasion`: why, when
    /// the purpose does not say it all (a resent sign-up code); `clientId`: the app client the
    /// code is for (a sign-up code's confirmation link names it).
    func issueCode(_ purpose: CodePurpose, for user: UserRecord, to destination: CodeDestination, pool: PoolRecord,
                   pendingValue: String? = nil, occasion: MessageOccasion? = nil, clientId: String? = nil,
                   in transaction: any StoreTransaction) async throws -> PendingCode {
        try await consumeMessageAllowance(to: destination, pool: pool, in: transaction)
        let now = time.now
        let lifetime = purpose == .forgotPassword
            ? configuration.passwordResetCodeLifetime : configuration.confirmationCodeLifetime
        let issued = codes.issue(
            for: user, purpose: purpose, destination: destination, pendingValue: pendingValue, now: now, lifetime: lifetime)
        try await transaction.saveCode(issued.record, keepingFailuresSince: now - CodeBook.guessWindow)
        let byLink = purpose == .signUp && destination.medium == .email
            && pool.settings.verificationMessageTemplate?.defaultEmailOption == .confirmWithLink
        let text = MessageTemplates.verification(
            pool: pool.settings, medium: destination.medium, code: issued.code, username: user.username,
            link: byLink ? confirmationLink(clientId: clientId, username: user.username, code: issued.code) : nil)
        let message = try await deliveryQueue.enqueue(OutboundMessage(
            poolId: pool.id, username: user.username, medium: destination.medium, destination: destination.address,
            subject: text.subject, body: text.body, code: issued.code, purpose: purpose.rawValue,
            sender: pool.settings.emailConfiguration?.from,
            occasion: (occasion ?? MessageOccasion(purpose: purpose)).rawValue, clientId: clientId), pool: pool, in: transaction)
        return PendingCode(user: user, destination: destination, code: issued.code, purpose: purpose, message: message)
    }

    /// The CONFIRM_WITH_LINK link for a sign-up code sent for `clientId` (nil without one).
    func confirmationLink(clientId: String?, username: String, code: String) -> String? {
        clientId.map { ConfirmationLink.url(base: configuration.publicBaseURL, clientId: $0, username: username, code: code) }
    }

    /// Where sign-up and attribute codes go: the first auto-verified attribute the user has
    /// (email before phone number).
    func verificationDestination(for user: UserRecord, pool: PoolRecord) -> CodeDestination? {
        let autoVerified = Set(pool.settings.autoVerifiedAttributes ?? [])
        for attribute in ["email", "phone_number"] where autoVerified.contains(VerifiedAttributeType(rawValue: attribute)) {
            if let destination = user.destination(for: attribute) { return destination }
        }
        return nil
    }

    /// Retries the queued messages that are due (every node, about once a second); returns how
    /// many went out.
    @discardableResult
    public func retryDeliveries() async throws -> Int { try await deliveryQueue.retryDue() }
}
