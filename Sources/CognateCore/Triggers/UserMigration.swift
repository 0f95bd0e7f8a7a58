import CognateProtocol
import Foundation

struct UserMigration: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let triggers: Triggers
    let users: UserDirectory
    let passwords: Passwords
}

extension UserMigration {
    /// UserMigration: a name that is no user, at sign-in with a password or at ForgotPassword
    /// (`password` nil), is offered to the pool's function; if it vouches for the user, the user
    /// is created from its answer — attributes as an administrator writes them, CONFIRMED with
    /// this password or RESET_REQUIRED — and returned (`created` false when a parallel request
    /// migrated the same name first: that user is returned). Nil when the pool has no such function,
    /// or (with PreventUserExistenceErrors) when the function refused: the caller then answers
    /// as for any unknown name. Without PreventUserExistenceErrors a refusal is
    /// UserNotFoundException "Exception migrating user in app client …".
    ///
    /// The password policy is not applied (Cognito does not), and no welcome message is sent.
    func migrateUser(_ typed: String, password: String?, clientMetadata: [String: String]?, pool: PoolRecord,
                     client: ClientRecord) async throws -> (user: UserRecord, created: Bool)? {
        guard triggers.isConfigured(.userMigration, pool: pool) else { return nil }
        var request: [String: JSONValue] = [
            "validationData": Triggers.strings(clientMetadata), "clientMetadata": Triggers.strings(clientMetadata),
        ]
        if let password { request["password"] = .string(password) }
        let response: [String: JSONValue]
        do {
            response = try await triggers.invoke(
                .userMigration, source: password == nil ? "UserMigration_ForgotPassword" : "UserMigration_Authentication",
                pool: pool, clientId: client.clientId, userName: typed, request: request, now: time.now) ?? [:]
        } catch let error as CognitoError where error.code == .userLambdaValidation {
            guard client.preventsUserExistenceErrors else {
                throw CognitoError(.userNotFound, "Exception migrating user in app client \(client.clientId)")
            }
            return nil
        }
        guard case .object(let answered)? = response["userAttributes"] else { throw Triggers.unrecognizable }
        let supplied = try answered.sorted { $0.key < $1.key }.map { name, value in
            guard case .string(let text) = value else { throw Triggers.unrecognizable }
            return AttributeType(name: name, value: text)
        }
        let status: UserStatusType
        switch response["finalUserStatus"] {
        case .string("CONFIRMED")?: status = .confirmed
        case nil, .null?, .string("RESET_REQUIRED")?: status = .resetRequired
        default: throw Triggers.unrecognizable
        }
        let moveAliases = try TriggerCalls.flag(response["forceAliasCreation"])

        let names = SignInNames(pool: pool.settings)
        var attributes = try AttributeRules(pool: pool.settings).validated(supplied, writer: .admin, isCreation: true)
        let sub = random.uuid()
        let username = try names.newUsername(typed, sub: sub, attributes: &attributes)
        let now = time.now
        let user = UserRecord(
            poolId: pool.id, sub: sub, username: username, usernameKey: names.usernameKey(username), status: status,
            enabled: true, createdAt: now, updatedAt: now,
            password: password.map { passwords.makePassword($0, username: username, poolId: pool.id) },
            passwordUpdatedAt: password == nil ? nil : now, attributes: attributes)
        do {
            try await store.write { transaction in
                try await transaction.insertUser(user)
                try await users.updateSignInNames(
                    of: user, pool: pool, in: transaction, moveAliases: moveAliases, newUser: true)
            }
        } catch StoreError.conflict(.username) {
            // Migrated by a parallel request meanwhile: that user it is.
            return try await store.read { try await users.findUser(typed, in: pool, $0) }.map { ($0, false) }
        }
        return (user, true)
    }
}
