import CognateProtocol
import Foundation

extension IdentityService {
    /// NEW_PASSWORD_REQUIRED for a user with a temporary password: the challenge lists the
    /// user's attributes and the pool-required attributes still missing
    /// (`["userAttributes.given_name"]`), which the answer must supply.
    func newPasswordChallenge(for user: UserRecord, pool: PoolRecord, client: ClientRecord,
                              in transaction: any StoreTransaction) async throws -> AuthOutcome {
        let missing = AttributeRules(pool: pool.settings).missingRequired(in: user.attributes)
        let session = try await openAuthSession(
            .newPasswordRequired, state: NewPasswordSessionState(username: user.username), user: user, pool: pool,
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

    /// The answer: a new password meeting the policy (else InvalidPasswordException, and the
    /// session stays usable for another try) and the missing required attributes; then the
    /// user is CONFIRMED and sign-in continues.
    func completeNewPassword(_ responses: [String: String], session: String, pool: PoolRecord, client: ClientRecord)
        async throws -> AuthOutcome
    {
        let newPassword = try AuthParameter.require("NEW_PASSWORD", in: responses)
        let username = try AuthParameter.require(AuthParameter.username, in: responses)
        let rules = AttributeRules(pool: pool.settings)
        let supplied = try rules.validated(
            responses.compactMap { key, value in
                key.hasPrefix("userAttributes.") ? AttributeType(name: String(key.dropFirst(15)), value: value) : nil
            }, writer: .user, isCreation: false)
        let now = time.now
        let result = try await transaction { transaction in
            let pending = try await self.readAuthSession(
                session, challenge: .newPasswordRequired, as: NewPasswordSessionState.self, pool: pool, client: client,
                in: transaction)
            guard let sub = pending.record.userSub,
                var user = try await transaction.user(poolId: pool.id, sub: sub, forUpdate: true),
                username == pending.state.username || username == user.sub
                    || SignInNames(pool: pool.settings).usernameKey(username) == user.usernameKey
            else { throw AuthSessions.invalid }
            try client.checkSecretHash(responses[AuthParameter.secretHash], usernames: [username, user.username, user.sub])
            try await self.setChosenPassword(newPassword, on: &user, pool: pool, in: transaction)
            user.attributes.merge(supplied) { $1 }
            if let missing = rules.missingRequired(in: user.attributes).first {
                throw CognitoError.invalidParameter("Invalid attributes given, \(missing) is missing")
            }
            user.status = .confirmed
            user.updatedAt = now
            try await transaction.updateUser(user)
            try await self.updateSignInNames(of: user, pool: pool, in: transaction)
            try await self.consumeAuthSession(pending.record, in: transaction)
            return try await self.completeFirstFactor(user, pool: pool, client: client, in: transaction)
        }
        return try outcome(of: result, pool: pool, client: client)
    }

    static func jsonString<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
