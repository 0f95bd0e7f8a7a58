import CognateProtocol
import Foundation

extension SignIn {
    /// MFA_SETUP answered. With `EMAIL` (email MFA offered in `MFAS_CAN_SETUP`): the address
    /// for email MFA codes, checked as any address a user writes, gets a code and an EMAIL_OTP
    /// challenge follows; the address becomes the user's only when that code is answered
    /// (``adoptSetUpEmail(_:for:pool:in:)``). Without it: the authenticator app VerifySoftwareToken
    /// verified with this session, and the user is signed in.
    ///
    /// The address may not replace one the user has ("Cannot modify an already provided
    /// email", Cognito's answer when NEW_PASSWORD_REQUIRED tries), nor be another user's where
    /// the email is the username (AliasExistsException); the session is used up, so one
    /// password sign-in sends at most one code, under the address's hourly limit.
    func answerMfaSetup(_ responses: [String: String], session: String, clientMetadata: [String: String]?,
                        pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        let username = try AuthParameter.require(AuthParameter.username, in: responses)
        let address = try responses["EMAIL"].map { _ in try Self.setupEmail(responses, pool: pool, client: client) }
        let result = try await store.transaction { transaction in
            let (pending, user) = try await authSessions.openMfaSession(
                session, challenge: .mfaSetup, username: username, responses: responses, pool: pool, client: client,
                in: transaction)
            if let address {
                guard user.destination(for: "email") == nil else {
                    throw CognitoError.notAuthorized("Cannot modify an already provided email")
                }
                // Where the email is the username, another user's address can never become this
                // user's: refused now rather than after a code to that user's mailbox.
                let names = SignInNames(pool: pool.settings)
                if names.usesAttributeAsUsername,
                    let owner = try await transaction.user(poolId: pool.id, signInName: names.key("email", address)),
                    owner.sub != user.sub
                {
                    throw UserDirectory.nameTaken(kind: "email")
                }
                try await authSessions.consumeAuthSession(pending.record, in: transaction)
                // Each address has its hourly limit; so has the user, or one password could send
                // codes to any number of addresses.
                try await challenges.allowances.consumeHourlyAllowance(
                    "mfa-setup-email", subject: user.sub, pool: pool, limit: Self.setupEmailsPerHour, transaction)
                var state = MfaSessionState(username: user.username, deviceKey: pending.state.deviceKey)
                state.setupAddress = address
                return try await challenges.sendMfaCode(
                    .emailOtp, user: user, state: state, pool: pool, client: client,
                    to: CodeDestination(attribute: "email", address: address), in: transaction)
            }
            guard pending.state.verified else {
                throw CognitoError.invalidParameter(Self.setupMissing(pool: pool))
            }
            try await authSessions.consumeAuthSession(pending.record, in: transaction)
            return try await completion.completeFirstFactor(
                user, pool: pool, client: client, askingForMfa: false, device: pending.state.deviceKey, in: transaction)
        }
        return try await tokenFamilies.outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
    }

    /// Addresses one user may be sent a set-up code to in an hour.
    static let setupEmailsPerHour = 5

    /// The answer's `EMAIL`, where the pool has email MFA: an address the app client may write
    /// and the pool's schema accepts (a wrong one: "Invalid email address format.").
    private static func setupEmail(_ responses: [String: String], pool: PoolRecord, client: ClientRecord) throws -> String {
        let email = try AuthParameter.require("EMAIL", in: responses)
        guard pool.mfa.email else { throw CognitoError.invalidParameter("Email MFA is not enabled for the user pool.") }
        let checked = try UserAttributeWrites(pool: pool, client: client)
            .checked([AttributeType(name: "email", value: email)], isCreation: false)
        return checked["email"] ?? email
    }

    /// What an MFA_SETUP answer with neither a verified app nor an address is told to do.
    private static func setupMissing(pool: PoolRecord) -> String {
        switch (pool.mfa.softwareToken, pool.mfa.email) {
        case (true, true):
            "Set up an authenticator app first (AssociateSoftwareToken, VerifySoftwareToken), or answer with EMAIL."
        case (false, true): "Answer with EMAIL, the address email MFA codes go to."
        default: "Set up an authenticator app first (AssociateSoftwareToken, VerifySoftwareToken)."
        }
    }

    /// The right code to the address an MFA_SETUP answer gave: it becomes the user's email
    /// address, verified (the code proved it, as Cognito marks an address verified by its first
    /// MFA code), and email MFA is on. A verified alias another user holds moves to this user,
    /// as VerifyUserAttribute moves it; where email is the username, another user's address is
    /// refused (AliasExistsException). An address set meanwhile by other means is not replaced.
    func adoptSetUpEmail(_ address: String, for user: UserRecord, pool: PoolRecord,
                         in transaction: any StoreTransaction) async throws -> UserRecord {
        var user = user
        if let current = user.destination(for: "email")?.address, current != address {
            throw CognitoError.notAuthorized("Cannot modify an already provided email")
        }
        let now = time.now
        user.attributes["email"] = address
        user.attributes["email_verified"] = "true"
        user.updatedAt = now
        try await transaction.updateUser(user)
        try await users.updateSignInNames(of: user, pool: pool, in: transaction, moveAliases: true)
        var mfa = try await transaction.userMfa(poolId: pool.id, sub: user.sub)
            ?? UserMfaRecord(poolId: pool.id, userSub: user.sub, updatedAt: now)
        mfa.emailEnabled = true
        mfa.updatedAt = now
        try await transaction.saveUserMfa(mfa)
        return user
    }
}
