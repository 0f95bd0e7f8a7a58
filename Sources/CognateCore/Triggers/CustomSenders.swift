import CognateProtocol
import Foundation

/// A pool's CustomEmailSender and CustomSMSSender functions: the pool's own channel for a
/// medium. The delivery queue hands them the pool's messages instead of the server's channel,
/// with the same retries, so a pool can send through its own provider.
///
/// Contract: the function receives Cognito's event — `triggerSource`
/// `CustomEmailSender_<occasion>` or `CustomSMSSender_<occasion>`, `request.type`
/// `customEmailSenderRequestV1` / `customSMSSenderRequestV1`, `request.code` (the code or
/// temporary password), `request.userAttributes`, `request.clientMetadata` (empty: it is not
/// kept while a message waits). Unlike Cognito, `code` is the code itself, not KMS ciphertext:
/// the call is signed, and must travel over HTTPS. A refusal is final (the message is
/// dropped); no answer, or a failed call, is retried.
struct CustomSenders: Sendable {
    let triggers: Triggers
    let store: any Store
    /// The pool a message is for (the service's configuration cache: no read per message).
    let pool: @Sendable (String) async throws -> PoolRecord?

    /// The pool function that carries messages of `medium` in place of the server's channel.
    static func trigger(for medium: DeliveryMediumType) -> Trigger {
        medium == .email ? .customEmailSender : .customSMSSender
    }

    /// Delivers `message` through its pool's function for the medium; false when the pool has
    /// none (the server's channel then carries it).
    func deliver(_ message: OutboundMessage, now: Date) async throws -> Bool {
        let trigger = Self.trigger(for: message.medium)
        guard let pool = try await pool(message.poolId), triggers.isConfigured(trigger, pool: pool) else { return false }
        let key = SignInNames(pool: pool.settings).usernameKey(message.username)
        let user = try await store.read { try await $0.user(poolId: pool.id, usernameKey: key) }
        let request: [String: JSONValue] = [
            "type": .string(message.medium == .email ? "customEmailSenderRequestV1" : "customSMSSenderRequestV1"),
            "code": message.code.map(JSONValue.string) ?? .null,
            "userAttributes": user.map(Triggers.userAttributes) ?? .object([:]),
            "clientMetadata": .object([:]),
        ]
        do {
            _ = try await triggers.invoke(
                trigger, source: "\(trigger.rawValue)_\(message.occasion ?? MessageOccasion.signUp.rawValue)", pool: pool,
                clientId: message.clientId, userName: message.username, request: request, now: now)
        } catch let error as CognitoError {
            throw DeliveryFailure(isPermanent: error.code == .userLambdaValidation, reason: error.message)
        }
        return true
    }
}
