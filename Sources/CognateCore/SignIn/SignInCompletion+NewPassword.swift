import CognateProtocol
import Foundation

extension SignInCompletion {
    /// NEW_PASSWORD_REQUIRED for a user with a temporary password: the challenge lists the
    /// user's attributes and the pool-required attributes still missing
    /// (`["userAttributes.given_name"]`), which the answer must supply.
    func newPasswordChallenge(for user: UserRecord, pool: PoolRecord, client: ClientRecord, device: String?,
                              in transaction: any StoreTransaction) async throws -> AuthOutcome {
        let missing = AttributeRules(pool: pool.settings).missingRequired(in: user.attributes)
        let session = try await authSessions.openAuthSession(
            .newPasswordRequired, state: NewPasswordSessionState(username: user.username, deviceKey: device), user: user,
            pool: pool,
            client: client, encoding: .session, in: transaction)
        var visible = user.attributes.filter { !$0.key.hasPrefix("dev:") && !$0.key.hasSuffix("_verified") }
        visible["email_verified"] = user.attributes["email_verified"]
        visible["phone_number_verified"] = user.attributes["phone_number_verified"]
        return .challenge(.newPasswordRequired, parameters: [
            "USER_ID_FOR_SRP": user.username,
            "requiredAttributes": Self.jsonString(missing.map { "userAttributes.\($0)" }),
            "userAttributes": Self.jsonString(visible),
        ], session: session)
    }

    static func jsonString<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
