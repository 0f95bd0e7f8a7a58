import CognateProtocol
import Foundation

extension Registration {
    public func signUp(_ request: SignUpRequest) async throws -> SignUpResponse {
        let (pool, client) = try await directory.requireClient(request.clientId)
        try await allowances.countRequest(.userCreation, client: client)
        try client.checkSecretHash(request.secretHash, usernames: [request.username])
        if pool.settings.adminCreateUserConfig?.allowAdminCreateUserOnly == true {
            throw CognitoError.notAuthorized("SignUp is not permitted for this user pool.")
        }
        let names = SignInNames(pool: pool.settings)
        let writes = UserAttributeWrites(pool: pool, client: client)
        let rules = writes.rules
        var attributes = try writes.checked(request.userAttributes ?? [], isCreation: true)
        let sub = random.uuid()
        let username = try names.newUsername(request.username, sub: sub, attributes: &attributes)
        if let missing = rules.missingRequired(in: attributes).first {
            throw AttributeRules.nonConforming(missing, "The attribute \(missing) is required")
        }
        let password = request.password.flatMap { $0.isEmpty ? nil : $0 }
        if let password {
            try PasswordRules.check(password, policy: pool.settings.policies?.passwordPolicy)
            try authEvents.checkNotCompromised(password, filter: .signUp, pool: pool, clientId: client.clientId)
        } else {
            try Self.checkPasswordlessSignUp(attributes, pool: pool, client: client)
        }
        // The pool's PreSignUp function may refuse the user, or confirm them at once.
        let verdict = try await triggerCalls.runPreSignUp(
            "PreSignUp_SignUp", pool: pool, clientId: client.clientId, username: username, attributes: attributes,
            validationData: request.validationData, clientMetadata: request.clientMetadata)
        if verdict.autoVerifyEmail { attributes["email_verified"] = "true" }
        if verdict.autoVerifyPhone { attributes["phone_number_verified"] = "true" }

        let now = time.now
        let user = UserRecord(
            poolId: pool.id, sub: sub, username: username, usernameKey: names.usernameKey(username),
            status: verdict.autoConfirmUser ? .confirmed : .unconfirmed, enabled: true, createdAt: now, updatedAt: now,
            password: password.map { passwords.makePassword($0, username: username, poolId: pool.id) },
            passwordUpdatedAt: password == nil ? nil : now, attributes: attributes)
        let destination = verdict.autoConfirmUser ? nil : pool.verificationDestination(for: user)
        let pending: PendingCode?, session: String?
        do {
            (pending, session) = try await store.write { transaction in
                try await users.insertNewUser(user, pool: pool, in: transaction)
                if let password = user.password { try await passwords.rememberPassword(password, of: user, pool: pool, in: transaction) }
                try await authEvents.recordAuthEvent(.signUp, of: user, pool: pool, in: transaction)
                let code = try await destination.asyncFlatMap {
                    try await messenger.issueCode(.signUp, for: user, to: $0, pool: pool, clientId: client.clientId, in: transaction)
                }
                return (code, try await signUpSessions.afterSignUp(user, pool: pool, client: client, in: transaction))
            }
        } catch StoreError.conflict(.username) {  // around the write: the insert may go out with what follows it
            throw CognitoError(.usernameExists, "User already exists")
        }
        let details = try await messenger.send(
            pending.map { [$0] } ?? [], pool: pool, clientId: client.clientId, clientMetadata: request.clientMetadata).first
        return SignUpResponse(
            userConfirmed: verdict.autoConfirmUser, codeDeliveryDetails: details, userSub: sub, session: session)
    }

    /// A sign-up without a password, allowed as Cognito allows it: the app client allows
    /// USER_AUTH, the pool allows a one-time code as a first factor (EMAIL_OTP, SMS_OTP), and
    /// the user gives an address for one the pool allows and verifies automatically (the
    /// confirmation code then verifies it, so the user can sign in with codes to it).
    static func checkPasswordlessSignUp(_ attributes: [String: String], pool: PoolRecord, client: ClientRecord) throws {
        let factors = FirstFactors.allowed(in: pool)
        let autoVerified = Set(pool.settings.autoVerifiedAttributes ?? [])
        let usable = (factors.contains(.emailOtp) && autoVerified.contains(.email) && attributes["email"] != nil)
            || (factors.contains(.smsOtp) && autoVerified.contains(.phoneNumber) && attributes["phone_number"] != nil)
        guard ClientSettings.allowedFlows(client.settings).contains(.allowUserAuth),
            factors.contains(.emailOtp) || factors.contains(.smsOtp)
        else {
            throw CognitoError.invalidParameter("A password is required to sign up.")
        }
        guard usable else {
            throw CognitoError.invalidParameter(
                "A user without a password needs an email address or phone number for a one-time-code sign-in the user "
                    + "pool allows and verifies automatically.")
        }
    }

    /// ConfirmSignUp: the sign-up code confirms the user and verifies the address it was sent
    /// to. With PreventUserExistenceErrors, a name that is no user is answered as a wrong code
    /// is (and counted like one); a user who is already confirmed gets Cognito's
    /// NotAuthorizedException, unless the pool hides existing users too
    /// (``ClientRecord/hidesExistingUsers(in:)``).
    public func confirmSignUp(_ request: ConfirmSignUpRequest) async throws -> ConfirmSignUpResponse {
        try await confirmSignUp(request, byLink: false)
    }

    /// A CONFIRM_WITH_LINK link opened (`GET /confirmUser`): ConfirmSignUp with the link's
    /// client, username and code. The link carries no SECRET_HASH and needs none: the code
    /// proves the address, as in ConfirmSignUp, under the same attempt limits.
    public func confirmSignUpByLink(clientId: String, username: String, code: String) async throws {
        _ = try await confirmSignUp(
            ConfirmSignUpRequest(clientId: clientId, username: username, confirmationCode: code), byLink: true)
    }

    private func confirmSignUp(_ request: ConfirmSignUpRequest, byLink: Bool) async throws -> ConfirmSignUpResponse {
        let (pool, client) = try await directory.requireClient(request.clientId)
        try await allowances.countRequest(.userCreation, client: client)
        let now = time.now
        let codes = self.codes
        let secretHash = byLink
            ? client.secret.map { SecretHash.compute(username: request.username, clientId: client.clientId, clientSecret: $0) }
            : request.secretHash
        let (confirmed, session) = try await store.transaction { transaction in
            guard let found = try await users.publicCaller(
                request.username, secretHash: secretHash, pool: pool, client: client, transaction)
            else {
                try await codes.refuseGuessWithoutCode(
                    subject: decoys.decoySubject(for: request.username, pool: pool), purpose: .signUp, in: transaction, now: now)
            }
            var user = try await users.locked(found, transaction)
            let hidesState = client.hidesExistingUsers(in: pool)
            guard user.status == .unconfirmed else {
                guard hidesState else {
                    throw CognitoError.notAuthorized("User cannot be confirmed. Current status is \(user.status.rawValue)")
                }
                try await codes.refuseGuessWithoutCode(subject: user.sub, purpose: .signUp, in: transaction, now: now)
            }
            let record = try await codes.redeem(
                request.confirmationCode, for: user, purpose: .signUp, revealsMissingCode: !hidesState, in: transaction,
                now: now)
            user.status = .confirmed
            if let attribute = record.deliveredTo { user.attributes["\(attribute)_verified"] = "true" }
            user.updatedAt = now
            try await transaction.updateUser(user)
            try await users.updateSignInNames(
                of: user, pool: pool, in: transaction, moveAliases: request.forceAliasCreation == true)
            let session = try await signUpSessions.continueAfterConfirmation(
                request.session, of: user, pool: pool, client: client, in: transaction)
            return (user, session)
        }
        try await triggerCalls.runPostConfirmation(
            "PostConfirmation_ConfirmSignUp", user: confirmed, pool: pool, clientId: client.clientId,
            clientMetadata: request.clientMetadata)
        return ConfirmSignUpResponse(session: session)
    }

    /// ResendConfirmationCode: a new sign-up code to the user's first auto-verified address, at
    /// most `codeRequestsPerHour` per hour. With PreventUserExistenceErrors, a name that gets no
    /// code (no user, already confirmed, no address) is answered as if one went out, under the
    /// same hourly limit.
    public func resendConfirmationCode(_ request: ResendConfirmationCodeRequest) async throws
        -> ResendConfirmationCodeResponse
    {
        let (pool, client) = try await directory.requireClient(request.clientId)
        try await allowances.countRequest(.userCreation, client: client)
        guard !(pool.settings.autoVerifiedAttributes ?? []).isEmpty else {
            throw CognitoError.invalidParameter("Cannot resend codes. Auto verification not turned on.")
        }
        let limit = configuration.codeRequestsPerHour
        let (pending, unsent): (PendingCode?, UserRecord?) = try await store.transaction { transaction in
            let found = try await users.publicCaller(
                request.username, secretHash: request.secretHash, pool: pool, client: client, transaction)
            guard let user = found, user.status == .unconfirmed, let destination = pool.verificationDestination(for: user)
            else {
                if let found, !client.preventsUserExistenceErrors {
                    throw found.status == .unconfirmed
                        ? CognitoError.invalidParameter("Cannot resend codes. Auto verification not turned on.")
                        : CognitoError.invalidParameter("User is already confirmed.")
                }
                let subject = found?.sub ?? decoys.decoySubject(for: request.username, pool: pool)
                try await allowances.consumeHourlyAllowance("resendConfirmationCode", subject: subject, pool: pool, limit: limit, transaction)
                return (nil, found)
            }
            try await allowances.consumeHourlyAllowance("resendConfirmationCode", subject: user.sub, pool: pool, limit: limit, transaction)
            try await authEvents.recordAuthEvent(.resendCode, of: user, pool: pool, in: transaction)
            return (try await messenger.issueCode(
                .signUp, for: user, to: destination, pool: pool, occasion: .resendCode, clientId: client.clientId,
                in: transaction), nil)
        }
        guard let pending else {
            return ResendConfirmationCodeResponse(
                codeDeliveryDetails: decoys.unsentDelivery(for: request.username, user: unsent, pool: pool, recovery: false))
        }
        return ResendConfirmationCodeResponse(codeDeliveryDetails: try await messenger.send(
            [pending], pool: pool, clientId: client.clientId, clientMetadata: request.clientMetadata
        ).first)
    }

    public func adminConfirmSignUp(_ request: AdminConfirmSignUpRequest) async throws -> AdminConfirmSignUpResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let now = time.now
        let confirmed = try await store.write { transaction in
            var user = try await users.locked(try await users.requireUser(request.username, in: pool, transaction), transaction)
            guard user.status == .unconfirmed else {
                throw CognitoError.notAuthorized("User cannot be confirmed. Current status is \(user.status.rawValue)")
            }
            user.status = .confirmed
            user.updatedAt = now
            try await transaction.updateUser(user)
            try await transaction.deleteCode(poolId: user.poolId, userSub: user.sub, purpose: .signUp)
            return user
        }
        try await triggerCalls.runPostConfirmation(
            "PostConfirmation_ConfirmSignUp", user: confirmed, pool: pool, clientId: nil, clientMetadata: request.clientMetadata)
        return AdminConfirmSignUpResponse()
    }

}
