import CognateProtocol
import Foundation

extension IdentityService {
    public func signUp(_ request: SignUpRequest) async throws -> SignUpResponse {
        let (pool, client) = try await requireClient(request.clientId)
        try client.checkSecretHash(request.secretHash, usernames: [request.username])
        if pool.settings.adminCreateUserConfig?.allowAdminCreateUserOnly == true {
            throw CognitoError.notAuthorized("SignUp is not permitted for this user pool.")
        }
        let names = SignInNames(pool: pool.settings)
        let rules = AttributeRules(pool: pool.settings)
        var attributes = try rules.validated(request.userAttributes ?? [], writer: .user, isCreation: true)
        for flag in ["email_verified", "phone_number_verified"] where attributes[flag] != nil {
            throw AttributeRules.nonConforming(flag, "Attribute cannot be set by users.")
        }
        let sub = random.uuid()
        let username = try names.newUsername(request.username, sub: sub, attributes: &attributes)
        if let missing = rules.missingRequired(in: attributes).first {
            throw AttributeRules.nonConforming(missing, "The attribute \(missing) is required")
        }
        guard let password = request.password, !password.isEmpty else {
            throw CognitoError.invalidParameter("A password is required to sign up.")
        }
        try PasswordRules.check(password, policy: pool.settings.policies?.passwordPolicy)

        let now = time.now
        let user = UserRecord(
            poolId: pool.id, sub: sub, username: username, usernameKey: names.usernameKey(username), status: .unconfirmed,
            enabled: true, createdAt: now, updatedAt: now, password: makePassword(password, username: username, poolId: pool.id),
            passwordUpdatedAt: now, attributes: attributes)
        let destination = verificationDestination(for: user, pool: pool)
        let issued = destination.map {
            codes.issue(for: user, purpose: .signUp, deliveredTo: $0.attribute, now: now,
                        lifetime: configuration.confirmationCodeLifetime)
        }
        try await store.write { transaction in
            do {
                try await transaction.insertUser(user)
            } catch StoreError.conflict(.username) {
                throw CognitoError(.usernameExists, "User already exists")
            }
            if let password = user.password { try await self.rememberPassword(password, of: user, pool: pool, in: transaction) }
            do {
                try await self.updateSignInNames(of: user, pool: pool, in: transaction)
            } catch let error as CognitoError where error.code == .aliasExists && names.usesAttributeAsUsername {
                throw CognitoError(.usernameExists, error.message)
            }
            if let issued { try await transaction.saveCode(issued.record) }
        }
        var details: CodeDeliveryDetailsType?
        if let destination, let issued {
            details = try await deliverVerificationCode(issued.code, to: destination, user: user, pool: pool, purpose: .signUp)
        }
        return SignUpResponse(userConfirmed: false, codeDeliveryDetails: details, userSub: sub)
    }

    public func confirmSignUp(_ request: ConfirmSignUpRequest) async throws -> ConfirmSignUpResponse {
        let (pool, client) = try await requireClient(request.clientId)
        let now = time.now
        let codes = self.codes
        try await transaction { transaction in
            guard let found = try await self.publicCaller(
                request.username, secretHash: request.secretHash, pool: pool, client: client, transaction)
            else { throw CognitoError.codeMismatch }
            var user = try await self.locked(found, transaction)
            guard user.status == .unconfirmed else {
                throw CognitoError.notAuthorized("User cannot be confirmed. Current status is \(user.status.rawValue)")
            }
            let record = try await codes.redeem(request.confirmationCode, for: user, purpose: .signUp, in: transaction, now: now)
            user.status = .confirmed
            if let attribute = record.deliveredTo { user.attributes["\(attribute)_verified"] = "true" }
            user.updatedAt = now
            try await transaction.updateUser(user)
            try await self.updateSignInNames(
                of: user, pool: pool, in: transaction, moveAliases: request.forceAliasCreation == true)
        }
        return ConfirmSignUpResponse()
    }

    public func resendConfirmationCode(_ request: ResendConfirmationCodeRequest) async throws
        -> ResendConfirmationCodeResponse
    {
        let (pool, client) = try await requireClient(request.clientId)
        let now = time.now
        let limit = configuration.codeRequestsPerHour
        let outcome: (UserRecord, CodeDestination, String)? = try await transaction { transaction in
            guard let user = try await self.publicCaller(
                request.username, secretHash: request.secretHash, pool: pool, client: client, transaction)
            else { return nil }
            guard user.status == .unconfirmed else { throw CognitoError.invalidParameter("User is already confirmed.") }
            guard let destination = self.verificationDestination(for: user, pool: pool) else {
                throw CognitoError.invalidParameter("Cannot resend codes. Auto verification not turned on.")
            }
            try await self.consumeHourlyAllowance("resendConfirmationCode", user: user, limit: limit, transaction)
            let issued = self.codes.issue(
                for: user, purpose: .signUp, deliveredTo: destination.attribute, now: now,
                lifetime: self.configuration.confirmationCodeLifetime)
            try await transaction.saveCode(issued.record)
            return (user, destination, issued.code)
        }
        guard let (user, destination, code) = outcome else {
            // Unknown user with PreventUserExistenceErrors: answer as if a code went out.
            return ResendConfirmationCodeResponse(codeDeliveryDetails: Self.simulatedDelivery(for: request.username, pool: pool))
        }
        let details = try await deliverVerificationCode(code, to: destination, user: user, pool: pool, purpose: .signUp)
        return ResendConfirmationCodeResponse(codeDeliveryDetails: details)
    }

    public func adminConfirmSignUp(_ request: AdminConfirmSignUpRequest) async throws -> AdminConfirmSignUpResponse {
        let pool = try await requirePool(request.userPoolId)
        let now = time.now
        try await store.write { transaction in
            var user = try await self.locked(try await self.requireUser(request.username, in: pool, transaction), transaction)
            guard user.status == .unconfirmed else {
                throw CognitoError.notAuthorized("User cannot be confirmed. Current status is \(user.status.rawValue)")
            }
            user.status = .confirmed
            user.updatedAt = now
            try await transaction.updateUser(user)
            try await transaction.deleteCode(userSub: user.sub, purpose: .signUp)
        }
        return AdminConfirmSignUpResponse()
    }

    /// The SRP verifier of a new password (the salt is 16 random bytes, stored PADded).
    func makePassword(_ password: String, username: String, poolId: String) -> StoredPassword {
        let salt = SRPEncoding.pad(random.bytes(16))
        let verifier = SRPServer.verifier(
            salt: salt, realm: SRPDerivation.poolName(ofPoolId: poolId), identity: username, secret: password)
        return StoredPassword(salt: salt, verifier: verifier)
    }

    /// Plausible delivery details for a user who does not exist (PreventUserExistenceErrors).
    static func simulatedDelivery(for typed: String, pool: PoolRecord) -> CodeDeliveryDetailsType {
        let isPhone = typed.hasPrefix("+")
        let destination = CodeDestination(
            attribute: isPhone ? "phone_number" : "email", address: typed.contains("@") || isPhone ? typed : "\(typed)@example.com")
        return destination.details
    }
}
