import CognateProtocol
import Foundation

extension IdentityService {
    /// NEW_PASSWORD_REQUIRED for a user with a temporary password: the challenge lists the
    /// user's attributes and the pool-required attributes still missing
    /// (`["userAttributes.given_name"]`), which the answer must supply.
    func newPasswordChallenge(for user: UserRecord, pool: PoolRecord, client: ClientRecord, device: String?,
                              in transaction: any StoreTransaction) async throws -> AuthOutcome {
        let missing = AttributeRules(pool: pool.settings).missingRequired(in: user.attributes)
        let session = try await openAuthSession(
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

    /// The answer: a new password meeting the policy (else InvalidPasswordException, and the
    /// session stays usable for another try) and the missing required attributes; then the
    /// user is CONFIRMED and sign-in continues.
    ///
    /// Attributes in the answer follow the rules of every user write (`UserAttributeWrites`:
    /// no verified flags, only what the client may write); an attribute that already has a
    /// value and is required, immutable or an address cannot be changed here (Cognito:
    /// "Cannot modify an already provided email"), and a new email or phone number is
    /// unverified and sent a code like any other change.
    func completeNewPassword(_ responses: [String: String], session: String, clientMetadata: [String: String]?,
                             pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome
    {
        let newPassword = try AuthParameter.require("NEW_PASSWORD", in: responses)
        let username = try AuthParameter.require(AuthParameter.username, in: responses)
        let writes = UserAttributeWrites(pool: pool, client: client)
        let supplied = try writes.checked(
            responses.compactMap { key, value in
                key.hasPrefix("userAttributes.") ? AttributeType(name: String(key.dropFirst(15)), value: value) : nil
            }, isCreation: true)
        let now = time.now
        let (result, codes) = try await transaction { transaction in
            let pending = try await self.readAuthSession(
                session, challenge: .newPasswordRequired, as: NewPasswordSessionState.self, pool: pool, client: client,
                in: transaction)
            guard let sub = pending.record.userSub,
                var user = try await transaction.user(poolId: pool.id, sub: sub, forUpdate: true)
            else { throw AuthSessions.invalid }
            try self.checkAnswerNames(
                username, sessionUsername: pending.state.username, user: user, responses: responses, pool: pool,
                client: client)
            try Self.checkNotAlreadyProvided(supplied, of: user, rules: writes.rules)
            try await self.setChosenPassword(newPassword, on: &user, pool: pool, in: transaction)
            let merged = user.attributes.merging(supplied) { $1 }.filter { !$0.value.isEmpty }
            if let missing = writes.rules.missingRequired(in: merged).first {
                throw CognitoError.invalidParameter("Invalid attributes given, \(missing) is missing")
            }
            user.status = .confirmed
            user.updatedAt = now
            let codes = try await self.applyAttributeChanges(supplied, to: &user, pool: pool, writer: .user, in: transaction)
            try await self.consumeAuthSession(pending.record, in: transaction)
            return (try await self.completeFirstFactor(
                user, pool: pool, client: client, device: pending.state.deviceKey, in: transaction), codes)
        }
        // The sign-in has succeeded; a code that cannot be delivered now is asked for again
        // with GetUserAttributeVerificationCode.
        _ = try? await send(codes, pool: pool)
        return try await outcome(
            of: result, source: "TokenGeneration_NewPasswordChallenge", clientMetadata: clientMetadata, pool: pool,
            client: client)
    }

    /// NotAuthorizedException for an attribute the challenge answer may not change: one that
    /// has a value and is required, immutable, or an email or phone number.
    static func checkNotAlreadyProvided(_ supplied: [String: String], of user: UserRecord, rules: AttributeRules) throws {
        for name in supplied.keys.sorted() where !(user.attributes[name] ?? "").isEmpty {
            let definition = rules.schema[name]
            if definition?.required == true || definition?.mutable == false || name == "email" || name == "phone_number" {
                throw CognitoError.notAuthorized("Cannot modify an already provided \(name)")
            }
        }
    }

    static func jsonString<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
