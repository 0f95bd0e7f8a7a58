import CognateProtocol
import Foundation

extension UserAdministration {
    /// AdminUpdateUserAttributes: an administrator may write any attribute the schema has,
    /// developer-only ones and the verified flags included; a changed email or phone number is
    /// unverified (and sent a code when auto-verified) unless the request verifies it too.
    public func adminUpdateUserAttributes(_ request: AdminUpdateUserAttributesRequest) async throws
        -> AdminUpdateUserAttributesResponse
    {
        let pool = try await directory.requirePool(request.userPoolId)
        let changes = try AttributeRules(pool: pool.settings).validated(request.userAttributes, writer: .admin, isCreation: false)
        let pending: [PendingCode] = try await store.write { transaction in
            var user = try await users.locked(try await users.requireUser(request.username, in: pool, transaction), transaction)
            return try await attributeEditor.applyAttributeChanges(changes, to: &user, pool: pool, writer: .admin, in: transaction)
        }
        _ = try await messenger.send(pending, pool: pool, clientMetadata: request.clientMetadata)
        return AdminUpdateUserAttributesResponse()
    }

    /// AdminDeleteUserAttributes: names must exist in the schema; required attributes and
    /// `sub` cannot be deleted.
    public func adminDeleteUserAttributes(_ request: AdminDeleteUserAttributesRequest) async throws
        -> AdminDeleteUserAttributesResponse
    {
        let pool = try await directory.requirePool(request.userPoolId)
        try AttributeRules(pool: pool.settings).checkDeletable(request.userAttributeNames)
        let removal = Dictionary(request.userAttributeNames.map { ($0, "") }, uniquingKeysWith: { first, _ in first })
        _ = try await store.write { transaction in
            var user = try await users.locked(try await users.requireUser(request.username, in: pool, transaction), transaction)
            return try await attributeEditor.applyAttributeChanges(removal, to: &user, pool: pool, writer: .admin, in: transaction)
        }
        return AdminDeleteUserAttributesResponse()
    }

    /// AdminResetUserPassword: the user must reset the password (PasswordResetRequiredException
    /// at sign-in, refresh refused) and, when a verified email or phone number exists, is sent
    /// a reset code for ConfirmForgotPassword. Every session of the user ends: an administrator
    /// resets a password because it may be known to someone else (docs/security.md).
    public func adminResetUserPassword(_ request: AdminResetUserPasswordRequest) async throws -> AdminResetUserPasswordResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let now = time.now
        let pending: PendingCode? = try await store.write { transaction in
            var user = try await users.locked(try await users.requireUser(request.username, in: pool, transaction), transaction)
            user.status = .resetRequired
            user.updatedAt = now
            try await transaction.updateUser(user)
            try await tokenFamilies.endEverySession(of: user.sub, pool: pool, at: now, in: transaction)
            return try await pool.recoveryDestination(for: user).asyncFlatMap {
                try await messenger.issueCode(.forgotPassword, for: user, to: $0, pool: pool, in: transaction)
            }
        }
        _ = try await messenger.send(pending.map { [$0] } ?? [], pool: pool, clientMetadata: request.clientMetadata)
        return AdminResetUserPasswordResponse()
    }

}

extension AttributeRules {
    func checkDeletable(_ names: [String]) throws {
        for name in names {
            guard let definition = schema[name] else {
                throw Self.nonConforming(name, "Attribute does not exist in the schema.")
            }
            if name == "sub" || definition.required == true {
                throw Self.nonConforming(name, "Required attributes can not be deleted.")
            }
        }
    }
}
