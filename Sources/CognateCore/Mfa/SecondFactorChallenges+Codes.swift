import CognateProtocol
import Foundation

extension SecondFactorChallenges {
    /// SMS_MFA or EMAIL_OTP: a new six-digit code to the user's `phone_number` or `email`,
    /// within the address's hourly message limit, queued in the sign-in's transaction. The
    /// session keeps only an HMAC of the code bound to user and address, so the code proves
    /// the address it went to for as long as the session lives (the client's
    /// AuthSessionValidity, three minutes by default).
    func sendMfaCode(_ factor: ChallengeNameType, user: UserRecord, state: MfaSessionState, pool: PoolRecord,
                     client: ClientRecord, in transaction: any StoreTransaction) async throws -> FirstFactorResult {
        let attribute = factor == .smsMfa ? "phone_number" : "email"
        guard let destination = user.destination(for: attribute) else { throw AuthSessions.invalid }
        try await allowances.consumeMessageAllowance(to: destination, pool: pool, in: transaction)
        let code = random.numericCode()
        var state = state
        state.codeHash = mfaCodeHash(code, user: user, address: destination.address)
        state.codeAttribute = attribute
        let session = try await authSessions.openAuthSession(
            .challenge(factor), state: state, user: user, pool: pool, client: client, encoding: .session, in: transaction)
        let text = MessageTemplates.mfaCode(mfa: pool.mfa, medium: destination.medium)
        let message = try await deliveryQueue.enqueue(OutboundMessage(
            poolId: pool.id, username: user.username, medium: destination.medium, destination: destination.address,
            subject: text.subject, body: MessageTemplates.fill(text.body, code: code, username: user.username), code: code,
            purpose: "mfa", sender: pool.settings.emailConfiguration?.from,
            occasion: MessageOccasion.authentication.rawValue, clientId: client.clientId), pool: pool, in: transaction)
        let outcome = AuthOutcome.challenge(factor, parameters: [
            "CODE_DELIVERY_DELIVERY_MEDIUM": destination.medium.rawValue, "CODE_DELIVERY_DESTINATION": destination.masked,
            "USER_ID_FOR_SRP": user.username,
        ], session: session)
        return .challenge(outcome, code: QueuedSignInCode(message: message, user: user))
    }

    func mfaCodeHash(_ code: String, user: UserRecord, address: String) -> String {
        codes.pseudorandom("mfa|\(user.sub)|\(address)|\(code)")
    }
}
