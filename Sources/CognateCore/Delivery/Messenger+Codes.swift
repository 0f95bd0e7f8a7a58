import CognateProtocol
import Foundation

extension Messenger {
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
        try await allowances.consumeMessageAllowance(to: destination, pool: pool, in: transaction)
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

}
