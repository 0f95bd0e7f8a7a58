import CognateProtocol
import Foundation

extension SignIn {
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
        let (result, codes) = try await store.transaction { transaction in
            let pending = try await authSessions.readAuthSession(
                session, challenge: .newPasswordRequired, as: NewPasswordSessionState.self, pool: pool, client: client,
                in: transaction)
            guard let sub = pending.record.userSub,
                var user = try await transaction.user(poolId: pool.id, sub: sub, forUpdate: true)
            else { throw AuthSessions.invalid }
            try authSessions.checkAnswerNames(
                username, sessionUsername: pending.state.username, user: user, responses: responses, pool: pool,
                client: client)
            try Self.checkNotAlreadyProvided(supplied, of: user, rules: writes.rules)
            try await passwords.setChosenPassword(newPassword, on: &user, pool: pool, in: transaction)
            let merged = user.attributes.merging(supplied) { $1 }.filter { !$0.value.isEmpty }
            if let missing = writes.rules.missingRequired(in: merged).first {
                throw CognitoError.invalidParameter("Invalid attributes given, \(missing) is missing")
            }
            user.status = .confirmed
            user.updatedAt = now
            let codes = try await attributeEditor.applyAttributeChanges(supplied, to: &user, pool: pool, writer: .user, in: transaction)
            try await authSessions.consumeAuthSession(pending.record, in: transaction)
            return (try await completion.completeFirstFactor(
                user, pool: pool, client: client, device: pending.state.deviceKey, in: transaction), codes)
        }
        // The sign-in has succeeded; a code that cannot be delivered now is asked for again
        // with GetUserAttributeVerificationCode.
        _ = try? await messenger.send(codes, pool: pool)
        return try await tokenFamilies.outcome(
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
}
