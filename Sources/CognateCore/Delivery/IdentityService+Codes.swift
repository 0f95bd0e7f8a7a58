import CognateProtocol

extension IdentityService {
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
