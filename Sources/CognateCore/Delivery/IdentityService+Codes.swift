import CognateProtocol
import Foundation

/// A code to send once the transaction that stored it has committed.
struct PendingCode: Sendable {
    var user: UserRecord
    var destination: CodeDestination
    var code: String
    var purpose: CodePurpose
}

extension IdentityService {
    /// Issues a code for `purpose` to `destination` and stores it in `transaction` (replacing
    /// the user's earlier code of that purpose, whose wrong guesses of the last hour carry
    /// over), within the pool's hourly limit of messages per address; `pendingValue` is a new
    /// address held until verified. Lifetimes: one hour for
    /// password resets, `confirmationCodeLifetime` (24 h) for the rest.
    func issueCode(_ purpose: CodePurpose, for user: UserRecord, to destination: CodeDestination, pool: PoolRecord,
                   pendingValue: String? = nil, in transaction: any StoreTransaction) async throws -> PendingCode {
        try await consumeMessageAllowance(to: destination, pool: pool, in: transaction)
        let now = time.now
        let lifetime = purpose == .forgotPassword
            ? configuration.passwordResetCodeLifetime : configuration.confirmationCodeLifetime
        let issued = codes.issue(
            for: user, purpose: purpose, destination: destination, pendingValue: pendingValue, now: now, lifetime: lifetime)
        try await transaction.saveCode(issued.record, keepingFailuresSince: now - CodeBook.guessWindow)
        return PendingCode(user: user, destination: destination, code: issued.code, purpose: purpose)
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

    /// Sends a verification code (after its transaction committed).
    func deliverVerificationCode(_ code: String, to destination: CodeDestination, user: UserRecord, pool: PoolRecord,
                                 purpose: CodePurpose) async throws -> CodeDeliveryDetailsType {
        let text = MessageTemplates.verification(
            pool: pool.settings, medium: destination.medium, code: code, username: user.username)
        try await deliver(OutboundMessage(
            poolId: pool.id, username: user.username, medium: destination.medium, destination: destination.address,
            subject: text.subject, body: text.body, code: code, purpose: purpose.rawValue))
        return destination.details
    }

    func deliver(_ message: OutboundMessage) async throws {
        do {
            try await delivery.deliver(message)
        } catch {
            throw CognitoError(.codeDeliveryFailure, "Unable to deliver the message: \(error)")
        }
    }
}
