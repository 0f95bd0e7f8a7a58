import CognateProtocol
import Foundation

extension UserAdministration {
    /// AdminCreateUser: a FORCE_CHANGE_PASSWORD user with a given or generated temporary
    /// password, invited by message unless SUPPRESSed; RESEND re-issues the invitation (and a
    /// new temporary password) to a user who has not signed in yet.
    public func adminCreateUser(_ request: AdminCreateUserRequest) async throws -> AdminCreateUserResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let policy = pool.settings.policies?.passwordPolicy
        if let given = request.temporaryPassword { try PasswordRules.check(given, policy: policy) }
        let temporary = request.temporaryPassword ?? TemporaryPasswords.generate(policy: policy, random: random)
        let now = time.now
        let invites = request.messageAction != .suppress
        let mediums = request.desiredDeliveryMediums
        let user: UserRecord, messages: [PendingMessage]
        if request.messageAction == .resend {
            // The new temporary password's verifier is computed before the write transaction.
            let found = try await store.read { try await users.requireUser(request.username, in: pool, $0) }
            let password = passwords.makePassword(temporary, username: found.username, poolId: pool.id)
            (user, messages) = try await store.write { transaction in
                var user = try await users.locked(found, transaction)
                guard user.status == .forceChangePassword else {
                    throw CognitoError(.unsupportedUserState, "Resend not possible. \(user.username) status is not FORCE_CHANGE_PASSWORD.")
                }
                user.password = password
                user.passwordUpdatedAt = now
                user.updatedAt = now
                try await transaction.updateUser(user)
                return (user, try await self.queueInvitation(
                    to: user, temporaryPassword: temporary, mediums: mediums, pool: pool, in: transaction))
            }
        } else {
            (user, messages) = try await insertAdminCreatedUser(request, temporaryPassword: temporary, invites: invites, pool: pool)
        }
        try await messenger.dispatch(
            messages.map { ($0, .adminCreateUser, user) }, pool: pool, clientId: nil, clientMetadata: request.clientMetadata)
        return AdminCreateUserResponse(user: user.wireUser())
    }

    private func insertAdminCreatedUser(_ request: AdminCreateUserRequest, temporaryPassword: String, invites: Bool,
                                        pool: PoolRecord) async throws -> (UserRecord, [PendingMessage])
    {
        let names = SignInNames(pool: pool.settings)
        let rules = AttributeRules(pool: pool.settings)
        var attributes = try rules.validated(request.userAttributes ?? [], writer: .admin, isCreation: true)
        let sub = random.uuid()
        let username = try names.newUsername(request.username, sub: sub, attributes: &attributes)
        // The pool's PreSignUp function may refuse the user (its other answers apply to SignUp only).
        _ = try await triggerCalls.runPreSignUp(
            "PreSignUp_AdminCreateUser", pool: pool, clientId: nil, username: username, attributes: attributes,
            validationData: request.validationData, clientMetadata: request.clientMetadata)
        let now = time.now
        let user = UserRecord(
            poolId: pool.id, sub: sub, username: username, usernameKey: names.usernameKey(username),
            status: .forceChangePassword, enabled: true, createdAt: now, updatedAt: now,
            password: passwords.makePassword(temporaryPassword, username: username, poolId: pool.id), passwordUpdatedAt: now,
            attributes: attributes)
        do {
            return try await store.write { transaction in
                try await users.insertNewUser(
                    user, pool: pool, moveAliases: request.forceAliasCreation == true, in: transaction)
                guard invites else { return (user, []) }
                return (user, try await self.queueInvitation(
                    to: user, temporaryPassword: temporaryPassword, mediums: request.desiredDeliveryMediums, pool: pool,
                    in: transaction))
            }
        } catch StoreError.conflict(.username) {  // around the write: the insert may go out with what follows it
            throw CognitoError(.usernameExists, "User account already exists")
        }
    }

    /// Queues the invitation (AdminCreateUserConfig.InviteMessageTemplate, `{username}` and
    /// `{####}`) in `transaction`; returns the queued messages.
    private func queueInvitation(to user: UserRecord, temporaryPassword: String, mediums: [DeliveryMediumType]?,
                                 pool: PoolRecord, in transaction: any StoreTransaction) async throws -> [PendingMessage] {
        let template = pool.settings.adminCreateUserConfig?.inviteMessageTemplate
        let wanted = mediums ?? [.email]
        var destinations: [CodeDestination] = []
        if wanted.contains(.email), let email = user.destination(for: "email") { destinations.append(email) }
        if wanted.contains(.sms), let phone = user.destination(for: "phone_number") { destinations.append(phone) }
        if destinations.isEmpty, mediums == nil, let phone = user.destination(for: "phone_number") { destinations.append(phone) }
        if destinations.isEmpty, mediums != nil {
            throw CognitoError.invalidParameter("User has no attribute matching desired delivery mediums")
        }
        let shownName = messenger.invitationName(of: user, pool: pool)
        var queued: [PendingMessage] = []
        for destination in destinations {
            let isEmail = destination.medium == .email
            let body = (isEmail ? template?.emailMessage : template?.smsMessage)
                ?? "Your username is {username} and temporary password is {####}. "
            let subject = isEmail ? (template?.emailSubject ?? "Your temporary password") : nil
            queued.append(try await deliveryQueue.enqueue(OutboundMessage(
                poolId: pool.id, username: user.username, medium: destination.medium, destination: destination.address,
                subject: subject, body: MessageTemplates.fill(body, code: temporaryPassword, username: shownName),
                code: temporaryPassword, purpose: "invitation", sender: pool.settings.emailConfiguration?.from,
                occasion: MessageOccasion.adminCreateUser.rawValue),
                pool: pool, in: transaction))
        }
        return queued
    }

    /// AdminSetUserPassword: Permanent makes the user CONFIRMED, otherwise the password is
    /// temporary (FORCE_CHANGE_PASSWORD). Every session of the user ends: whoever knew the old
    /// password must not stay signed in (docs/security.md).
    public func adminSetUserPassword(_ request: AdminSetUserPasswordRequest) async throws -> AdminSetUserPasswordResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let now = time.now
        try await changeUser(request.username, in: pool) { user, transaction in
            try await passwords.setChosenPassword(request.password, on: &user, pool: pool, in: transaction)
            user.status = request.permanent == true ? .confirmed : .forceChangePassword
            try await tokenFamilies.endEverySession(of: user.sub, pool: pool, at: now, in: transaction)
        }
        return AdminSetUserPasswordResponse()
    }

    /// AdminDisableUser: the user cannot sign in, and every token issued so far is revoked (they
    /// stay revoked when the user is enabled again, as in Cognito).
    public func adminDisableUser(_ request: AdminDisableUserRequest) async throws -> AdminDisableUserResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let now = time.now
        try await changeUser(request.username, in: pool) { user, transaction in
            user.enabled = false
            try await tokenFamilies.endEverySession(of: user.sub, pool: pool, at: now, in: transaction)
        }
        return AdminDisableUserResponse()
    }

    public func adminEnableUser(_ request: AdminEnableUserRequest) async throws -> AdminEnableUserResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        try await changeUser(request.username, in: pool) { user, _ in user.enabled = true }
        return AdminEnableUserResponse()
    }

    /// Revokes every refresh token of the user and the access tokens issued from them.
    public func adminUserGlobalSignOut(_ request: AdminUserGlobalSignOutRequest) async throws -> AdminUserGlobalSignOutResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let now = time.now
        try await store.write { transaction in
            let user = try await users.requireUser(request.username, in: pool, transaction)
            try await tokenFamilies.endEverySession(of: user.sub, pool: pool, at: now, in: transaction)
        }
        return AdminUserGlobalSignOutResponse()
    }

    /// Loads a user by name, lets `change` edit it, and saves it (with sign-in names) in one
    /// transaction.
    func changeUser(_ username: String, in pool: PoolRecord,
                    _ change: @escaping @Sendable (inout UserRecord, any StoreTransaction) async throws -> Void) async throws {
        let now = time.now
        try await store.write { transaction in
            var user = try await users.locked(try await users.requireUser(username, in: pool, transaction), transaction)
            try await change(&user, transaction)
            user.updatedAt = now
            try await transaction.updateUser(user)
            try await users.updateSignInNames(of: user, pool: pool, in: transaction)
        }
    }
}

extension UserAdministration {
    public func adminGetUser(_ request: AdminGetUserRequest) async throws -> AdminGetUserResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let user = try await store.read { try await users.requireUser(request.username, in: pool, $0) }
        let mfa = try await mfaView.mfaSettings(of: user, pool: pool)
        return AdminGetUserResponse(
            username: user.username, userAttributes: user.wireAttributes(), userCreateDate: user.createdAt,
            userLastModifiedDate: user.updatedAt, enabled: user.enabled, userStatus: user.status,
            mfaOptions: mfa.options, preferredMfaSetting: mfa.preferred, userMFASettingList: mfa.list)
    }

    public func adminDeleteUser(_ request: AdminDeleteUserRequest) async throws -> EmptyResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        try await store.write { transaction in
            let user = try await users.requireUser(request.username, in: pool, transaction)
            try await transaction.deleteUser(poolId: pool.id, sub: user.sub)
        }
        return EmptyResponse()
    }
}
