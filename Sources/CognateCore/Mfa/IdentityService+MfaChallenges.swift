import CognateProtocol
import Foundation

extension IdentityService {
    /// The second factor a sign-in needs after its first, inside the first factor's transaction
    /// (nil: none). The factors a user can be asked for are those the pool enables and the user
    /// has: a verified authenticator app (SOFTWARE_TOKEN_MFA), a `phone_number` (SMS_MFA), an
    /// `email` (EMAIL_OTP) — each when the pool requires MFA or the user enabled it. The
    /// preferred one, or the only one, is asked for; with several and none preferred the user
    /// chooses (SELECT_MFA_TYPE). A user with none, in a pool that requires MFA, must set up an
    /// authenticator app first (MFA_SETUP). `forced` (threat protection's risk-based MFA): every
    /// factor the pool enables and the user has, as if MFA were required, even in an OPTIONAL pool.
    func mfaChallenge(for user: UserRecord, pool: PoolRecord, client: ClientRecord, device: String?, forced: Bool = false,
                      in transaction: any StoreTransaction) async throws -> FirstFactorResult? {
        let mode = pool.settings.mfaConfiguration ?? .off
        guard mode != .off else { return nil }
        let mfa = try await transaction.userMfa(poolId: pool.id, sub: user.sub)
        let factors = Self.mfaFactors(of: user, mfa: mfa, pool: pool, required: mode == .on || forced)
        let state = MfaSessionState(username: user.username, deviceKey: device)
        if let preferred = mfa?.preferred.map(ChallengeNameType.init(rawValue:)), factors.contains(preferred) {
            return try await askForFactor(preferred, user: user, state: state, pool: pool, client: client, in: transaction)
        }
        if factors.count == 1 {
            return try await askForFactor(factors[0], user: user, state: state, pool: pool, client: client, in: transaction)
        }
        if factors.count > 1 {
            let session = try await openAuthSession(
                .selectMfaType, state: state, user: user, pool: pool, client: client, encoding: .session, in: transaction)
            return .challenge(.challenge(.selectMfaType, parameters: [
                "MFAS_CAN_CHOOSE": Self.jsonList(factors), "USER_ID_FOR_SRP": user.username,
            ], session: session))
        }
        guard mode == .on else { return nil }
        // Required MFA with no factor to set up must not let users in without one.
        guard pool.mfa.softwareToken else {
            throw CognitoError(.invalidUserPoolConfiguration, "MFA is required but no MFA method is enabled for the user pool.")
        }
        let session = try await openAuthSession(
            .mfaSetup, state: state, user: user, pool: pool, client: client, encoding: .session, in: transaction)
        return .challenge(.challenge(.mfaSetup, parameters: [
            "MFAS_CAN_SETUP": Self.jsonList([.softwareTokenMfa]), "USER_ID_FOR_SRP": user.username,
        ], session: session))
    }

    /// The factors `user` can be asked for, in the order Cognito lists them.
    static func mfaFactors(of user: UserRecord, mfa: UserMfaRecord?, pool: PoolRecord, required: Bool) -> [ChallengeNameType] {
        var factors: [ChallengeNameType] = []
        if pool.mfa.softwareToken, mfa?.totpSecret != nil, required || mfa?.totpEnabled == true {
            factors.append(.softwareTokenMfa)
        }
        if pool.mfa.sms, user.destination(for: "phone_number") != nil, required || mfa?.smsEnabled == true {
            factors.append(.smsMfa)
        }
        if pool.mfa.email, user.destination(for: "email") != nil, required || mfa?.emailEnabled == true {
            factors.append(.emailOtp)
        }
        return factors
    }

    /// The challenge for one factor: a code request for the authenticator app, or a code sent
    /// by SMS or email (queued here, sent once the transaction committed).
    func askForFactor(_ factor: ChallengeNameType, user: UserRecord, state: MfaSessionState, pool: PoolRecord,
                      client: ClientRecord, in transaction: any StoreTransaction) async throws -> FirstFactorResult {
        guard factor == .softwareTokenMfa else {
            return try await sendMfaCode(factor, user: user, state: state, pool: pool, client: client, in: transaction)
        }
        let session = try await openAuthSession(
            .softwareTokenMfa, state: state, user: user, pool: pool, client: client, encoding: .session, in: transaction)
        var parameters = ["USER_ID_FOR_SRP": user.username]
        parameters["FRIENDLY_DEVICE_NAME"] = try await transaction.userMfa(poolId: pool.id, sub: user.sub)?.totpName
        return .challenge(.challenge(.softwareTokenMfa, parameters: parameters, session: session))
    }

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
    /// the user locked). A right code completes the sign-in; wrong codes are counted per
    /// session, and the third uses the session up, and per user (`mfaLockoutSubject`): while
    /// the user is locked out every answer is refused, right or wrong.
    func answerMfaCode(
        _ challenge: ChallengeNameType, responses: [String: String], session: String, clientMetadata: [String: String]?,
        pool: PoolRecord, client: ClientRecord,
        check: @escaping @Sendable (MfaSessionState, UserRecord, any StoreTransaction) async throws -> Bool
    ) async throws -> AuthOutcome {
        let username = try AuthParameter.require(AuthParameter.username, in: responses)
        let result = try await transaction { transaction in
            let (pending, user) = try await self.openMfaSession(
                session, challenge: challenge, username: username, responses: responses, pool: pool, client: client,
                in: transaction)
            let subject = Self.mfaLockoutSubject(of: user)
            let lockout = try await self.checkNotLockedOut(subject, poolId: pool.id, in: transaction)
            guard try await check(pending.state, user, transaction) else {
                try await self.recordFailedSignIn(subject, poolId: pool.id, in: transaction)
                let failures = try await transaction.incrementCounter(
                    key: "mfa-code:\(pending.record.tokenHash)", windowStart: pending.record.createdAt)
                if failures >= Self.mfaCodeAttempts { try await self.consumeAuthSession(pending.record, in: transaction) }
                throw CommitAndFail(Self.mfaCodeMismatch)
            }
            if lockout != nil { try await transaction.clearSignInLockout(poolId: pool.id, subject: subject) }
            try await self.consumeAuthSession(pending.record, in: transaction)
            return try await self.completeFirstFactor(
                user, pool: pool, client: client, askingForMfa: false, device: pending.state.deviceKey, in: transaction)
        }
        return try await outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
    }

    /// SELECT_MFA_TYPE answered (`ANSWER`: one of the factors offered): that factor's challenge.
    func answerSelectMfaType(_ responses: [String: String], session: String, clientMetadata: [String: String]?,
                             pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        let username = try AuthParameter.require(AuthParameter.username, in: responses)
        let answer = ChallengeNameType(rawValue: try AuthParameter.require("ANSWER", in: responses))
        let result = try await transaction { transaction in
            let (pending, user) = try await self.openMfaSession(
                session, challenge: .selectMfaType, username: username, responses: responses, pool: pool, client: client,
                in: transaction)
            let mfa = try await transaction.userMfa(poolId: pool.id, sub: user.sub)
            let factors = Self.mfaFactors(of: user, mfa: mfa, pool: pool, required: pool.settings.mfaConfiguration == .on)
            guard factors.contains(answer) else {
                throw CognitoError.invalidParameter("ANSWER must be one of \(Self.jsonList(factors)).")
            }
            try await self.consumeAuthSession(pending.record, in: transaction)
            return try await self.askForFactor(answer, user: user, state: pending.state, pool: pool, client: client, in: transaction)
        }
        return try await outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
    }

    /// MFA_SETUP answered, once VerifySoftwareToken verified the new app with this session:
    /// the user is signed in.
    func answerMfaSetup(_ responses: [String: String], session: String, clientMetadata: [String: String]?,
                        pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        let username = try AuthParameter.require(AuthParameter.username, in: responses)
        let result = try await transaction { transaction in
            let (pending, user) = try await self.openMfaSession(
                session, challenge: .mfaSetup, username: username, responses: responses, pool: pool, client: client,
                in: transaction)
            guard pending.state.verified else {
                throw CognitoError.invalidParameter("Set up an authenticator app first (AssociateSoftwareToken, VerifySoftwareToken).")
            }
            try await self.consumeAuthSession(pending.record, in: transaction)
            return try await self.completeFirstFactor(
                user, pool: pool, client: client, askingForMfa: false, device: pending.state.deviceKey, in: transaction)
        }
        return try await outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
    }

    /// An MFA session and its user (locked), checked against the answer's USERNAME and
    /// SECRET_HASH.
    func openMfaSession(_ session: String, challenge: ChallengeNameType, username: String?, responses: [String: String],
                        pool: PoolRecord, client: ClientRecord,
                        in transaction: any StoreTransaction) async throws -> (OpenAuthSession<MfaSessionState>, UserRecord) {
        let pending = try await readAuthSession(
            session, challenge: challenge, as: MfaSessionState.self, pool: pool, client: client, in: transaction)
        guard let sub = pending.record.userSub,
            let user = try await transaction.user(poolId: pool.id, sub: sub, forUpdate: true)
        else { throw AuthSessions.invalid }
        if let username {
            try checkAnswerNames(
                username, sessionUsername: pending.state.username, user: user, responses: responses, pool: pool,
                client: client)
        }
        return (pending, user)
    }

    /// Challenge names as the JSON list Cognito puts in MFAS_CAN_CHOOSE / MFAS_CAN_SETUP.
    static func jsonList(_ names: [ChallengeNameType]) -> String {
        "[" + names.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]"
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
