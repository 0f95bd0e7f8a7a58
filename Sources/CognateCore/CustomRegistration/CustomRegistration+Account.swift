import CognateProtocol
import Foundation

extension CustomRegistration {
    /// Creates the account the function described — confirmed, without a password — and signs
    /// the user in, in one transaction: a name taken is UsernameExistsException, and nothing is
    /// left behind by a refusal.
    ///
    /// The attributes are checked as an administrator's are (AdminCreateUser: the function may
    /// verify addresses); the pool's required attributes must be among them. The username is
    /// the function's; in a pool whose usernames are email addresses or phone numbers, the
    /// user's email (or phone number) when the function names none; elsewhere, without one,
    /// the new user's `sub`.
    func createAndSignIn(username: String?, attributes given: [String: String], clientMetadata: [String: String]?,
                         pool: PoolRecord, client: ClientRecord) async throws -> (UserRecord, AuthOutcome) {
        let names = SignInNames(pool: pool.settings)
        let rules = AttributeRules(pool: pool.settings)
        var attributes = try rules.validated(
            given.sorted { $0.key < $1.key }.map { AttributeType(name: $0.key, value: $0.value) }, writer: .admin,
            isCreation: true)
        let sub = random.uuid()
        let typed = username
            ?? (names.usesAttributeAsUsername ? attributes["email"] ?? attributes["phone_number"] ?? "" : sub)
        let chosen = try names.newUsername(typed, sub: sub, attributes: &attributes)
        if let missing = rules.missingRequired(in: attributes).first {
            throw AttributeRules.nonConforming(missing, "The attribute \(missing) is required")
        }
        let now = time.now
        let user = UserRecord(
            poolId: pool.id, sub: sub, username: chosen, usernameKey: names.usernameKey(chosen), status: .confirmed,
            enabled: true, createdAt: now, updatedAt: now, password: nil, passwordUpdatedAt: nil, attributes: attributes)
        let (users, authEvents, completion) = (self.users, self.authEvents, self.completion)
        let result: FirstFactorResult
        do {
            result = try await store.transaction { transaction in
                try await users.insertNewUser(user, pool: pool, in: transaction)
                try await authEvents.recordAuthEvent(.signUp, of: user, pool: pool, in: transaction)
                return try await completion.completeFirstFactor(user, pool: pool, client: client, in: transaction)
            }
        } catch StoreError.conflict(.username) {
            throw CognitoError(.usernameExists, "User already exists")
        }
        let outcome = try await tokenFamilies.outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
        return (user, outcome)
    }
}
