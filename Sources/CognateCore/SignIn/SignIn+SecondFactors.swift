import CognateProtocol
import Foundation

extension SignIn {
    /// SOFTWARE_TOKEN_MFA answered (`SOFTWARE_TOKEN_MFA_CODE`): a code of the user's app for
    /// this time step (±30 s), never one already used. Three wrong codes use the session up.
    func answerSoftwareTokenMfa(_ responses: [String: String], session: String, clientMetadata: [String: String]?,
                                pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        let code = try AuthParameter.require("SOFTWARE_TOKEN_MFA_CODE", in: responses)
        let now = time.now
        return try await answerMfaCode(
            .softwareTokenMfa, responses: responses, session: session, clientMetadata: clientMetadata, pool: pool,
            client: client
        ) { _, user, transaction in
            guard let secret = try await transaction.userMfa(poolId: pool.id, sub: user.sub)?.totpSecret.flatMap(Base32.decode),
                let step = TOTP.matchingStep(code, secret: secret, now: now)
            else { return false }
            return try await transaction.useTotpStep(poolId: pool.id, sub: user.sub, step: step)
        }
    }

    /// An MFA code answered: `check` says whether the code is right (inside the transaction,
    /// the user locked). A right code completes the sign-in (a code to an address MFA_SETUP gave
    /// first makes that address the user's: ``adoptSetUpEmail(_:for:pool:in:)``); wrong codes
    /// are counted per session, and the third uses the session up, and per user
    /// (`mfaLockoutSubject`): while the user is locked out every answer is refused, right or wrong.
    func answerMfaCode(
        _ challenge: ChallengeNameType, responses: [String: String], session: String, clientMetadata: [String: String]?,
        pool: PoolRecord, client: ClientRecord,
        check: @escaping @Sendable (MfaSessionState, UserRecord, any StoreTransaction) async throws -> Bool
    ) async throws -> AuthOutcome {
        let username = try AuthParameter.require(AuthParameter.username, in: responses)
        let result = try await store.transaction { transaction in
            try await refuseDecoyCode(
                challenge, session: session, username: username, responses: responses, pool: pool, client: client,
                in: transaction)
            let (pending, user) = try await authSessions.openMfaSession(
                session, challenge: challenge, username: username, responses: responses, pool: pool, client: client,
                in: transaction)
            let subject = Self.mfaLockoutSubject(of: user)
            let lockout = try await throttle.checkNotLockedOut(subject, poolId: pool.id, in: transaction)
            guard try await check(pending.state, user, transaction) else {
                try await throttle.recordFailedSignIn(subject, poolId: pool.id, in: transaction)
                let failures = try await transaction.incrementCounter(
                    key: "mfa-code:\(pending.record.tokenHash)", windowStart: pending.record.createdAt)
                if failures >= Self.mfaCodeAttempts { try await authSessions.consumeAuthSession(pending.record, in: transaction) }
                throw CommitAndFail(Self.mfaCodeMismatch)
            }
            if lockout != nil { try await transaction.clearSignInLockout(poolId: pool.id, subject: subject) }
            try await authSessions.consumeAuthSession(pending.record, in: transaction)
            let signedIn = if let address = pending.state.setupAddress {
                try await adoptSetUpEmail(address, for: user, pool: pool, in: transaction)
            } else { user }
            if pending.state.firstFactor == true {
                return try await completion.completePasswordless(
                    signedIn, factor: challenge, pool: pool, client: client, device: pending.state.deviceKey, in: transaction)
            }
            return try await completion.completeFirstFactor(
                signedIn, pool: pool, client: client, askingForMfa: false, device: pending.state.deviceKey, in: transaction)
        }
        return try await tokenFamilies.outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
    }

    /// SELECT_MFA_TYPE answered (`ANSWER`: one of the factors offered): that factor's challenge.
    func answerSelectMfaType(_ responses: [String: String], session: String, clientMetadata: [String: String]?,
                             pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        let username = try AuthParameter.require(AuthParameter.username, in: responses)
        let answer = ChallengeNameType(rawValue: try AuthParameter.require("ANSWER", in: responses))
        let result = try await store.transaction { transaction in
            let (pending, user) = try await authSessions.openMfaSession(
                session, challenge: .selectMfaType, username: username, responses: responses, pool: pool, client: client,
                in: transaction)
            let mfa = try await transaction.userMfa(poolId: pool.id, sub: user.sub)
            let factors = SecondFactorChallenges.mfaFactors(of: user, mfa: mfa, pool: pool, required: pool.settings.mfaConfiguration == .on)
            guard factors.contains(answer) else {
                throw CognitoError.invalidParameter("ANSWER must be one of \(SecondFactorChallenges.jsonList(factors)).")
            }
            try await authSessions.consumeAuthSession(pending.record, in: transaction)
            return try await challenges.askForFactor(answer, user: user, state: pending.state, pool: pool, client: client, in: transaction)
        }
        return try await tokenFamilies.outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
    }

    /// A code challenge of a name that is no user (choice-based sign-in, PreventUserExistenceErrors)
    /// answered: refused as a wrong code is, counted for its decoy subject, the session used up
    /// after the third. Returns for every other session.
    private func refuseDecoyCode(
        _ challenge: ChallengeNameType, session: String, username: String, responses: [String: String], pool: PoolRecord,
        client: ClientRecord, in transaction: any StoreTransaction
    ) async throws {
        let pending = try await authSessions.readAuthSession(
            session, challenge: .challenge(challenge), as: MfaSessionState.self, pool: pool, client: client, in: transaction)
        guard pending.record.userSub == nil, let subject = pending.state.decoySubject else { return }
        try authSessions.checkAnswerNames(
            username, sessionUsername: pending.state.username, user: nil, responses: responses, pool: pool, client: client)
        _ = try await throttle.checkNotLockedOut(subject, poolId: pool.id, in: transaction)
        try await throttle.recordFailedSignIn(subject, poolId: pool.id, in: transaction)
        let failures = try await transaction.incrementCounter(
            key: "mfa-code:\(pending.record.tokenHash)", windowStart: pending.record.createdAt)
        if failures >= Self.mfaCodeAttempts { try await authSessions.consumeAuthSession(pending.record, in: transaction) }
        throw CommitAndFail(Self.mfaCodeMismatch)
    }

    static let mfaCodeAttempts = 3

    /// The subject wrong MFA codes are counted under, per user and across sessions, with the
    /// lockout rules of wrong passwords (`SignInThrottle`: five free, then a lockout doubling
    /// up to 15 minutes): a session allows three guesses, and a right password opens a new
    /// session at will, so without it an authenticator's six digits could be guessed at the
    /// rate of sign-ins. Its own subject, not the user's: a right password clears the user's
    /// count, and must not clear this one.
    static func mfaLockoutSubject(of user: UserRecord) -> String { "mfa:" + user.sub }

    static let mfaCodeMismatch = CognitoError(.codeMismatch, "Invalid code received for user")
}

extension SignIn {
    /// SMS_MFA (`SMS_MFA_CODE`), EMAIL_OTP (`EMAIL_OTP_CODE`) or SMS_OTP (`SMS_OTP_CODE`)
    /// answered: the code sent for this session, to the address the user still has (or, for
    /// email MFA being set up, to the address the MFA_SETUP answer gave). EMAIL_OTP and SMS_OTP
    /// may be a choice-based sign-in's first factor: answered alike, and no second factor
    /// follows either.
    func answerSentMfaCode(_ challenge: ChallengeNameType, _ responses: [String: String], session: String,
                           clientMetadata: [String: String]?, pool: PoolRecord, client: ClientRecord) async throws
        -> AuthOutcome
    {
        let member = switch challenge {
        case .smsMfa: "SMS_MFA_CODE"
        case .smsOtp: "SMS_OTP_CODE"
        default: "EMAIL_OTP_CODE"
        }
        let code = try AuthParameter.require(member, in: responses)
        return try await answerMfaCode(
            challenge, responses: responses, session: session, clientMetadata: clientMetadata, pool: pool, client: client
        ) { state, user, _ in
            guard let expected = state.codeHash, let attribute = state.codeAttribute,
                let address = state.setupAddress ?? user.destination(for: attribute)?.address
            else { return false }
            return ConstantTime.equals(challenges.mfaCodeHash(code, user: user, address: address), expected)
        }
    }
}
