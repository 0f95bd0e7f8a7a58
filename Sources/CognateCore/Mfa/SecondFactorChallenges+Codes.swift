import CognateProtocol
import Foundation

extension SecondFactorChallenges {
    /// SMS_MFA or EMAIL_OTP: a new code of `digits` digits to the user's `phone_number` or
    /// `email`, within the address's hourly message limit, queued in the sign-in's transaction.
    /// The session keeps only an HMAC of the code bound to user and address, so the code proves
    /// the address it went to for as long as the session lives (the client's
    /// AuthSessionValidity, three minutes by default). Choice-based sign-in sends its
    /// first-factor codes (EMAIL_OTP, SMS_OTP: eight digits, as Cognito's) the same way.
    /// `address`: where the code goes instead of the user's own address — the email address an
    /// MFA_SETUP answer gives (`state.setupAddress`), which the code then proves.
    func sendMfaCode(_ factor: ChallengeNameType, user: UserRecord, state: MfaSessionState, pool: PoolRecord,
                     client: ClientRecord, digits: Int = 6, to address: CodeDestination? = nil,
                     in transaction: any StoreTransaction) async throws -> FirstFactorResult
    {
        let attribute = Self.codeAttribute(of: factor)
        guard let destination = address ?? user.destination(for: attribute) else { throw AuthSessions.invalid }
        try await allowances.consumeMessageAllowance(to: destination, pool: pool, in: transaction)
        let code = random.numericCode(digits: digits)
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

    /// The attribute a code challenge's code goes to.
    static func codeAttribute(of factor: ChallengeNameType) -> String {
        factor == .smsMfa || factor == .smsOtp ? "phone_number" : "email"
    }

    func mfaCodeHash(_ code: String, user: UserRecord, address: String) -> String {
        codes.pseudorandom("mfa|\(user.sub)|\(address)|\(code)")
    }
}
