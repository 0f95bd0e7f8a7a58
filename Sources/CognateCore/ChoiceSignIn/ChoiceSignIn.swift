import CognateProtocol
import Foundation

/// Choice-based sign-in (USER_AUTH): the user names themselves, and signs in with one of the
/// first factors ``FirstFactors`` offers them — named up front (`PREFERRED_CHALLENGE`) or
/// chosen when asked (SELECT_CHALLENGE). One-time codes and passkeys are carried out here;
/// password factors are handed back to ``SignIn`` (``ChoiceStep/password(_:parameters:)``),
/// which checks them as USER_PASSWORD_AUTH and USER_SRP_AUTH do, MFA included.
///
/// For a name that is no user, with PreventUserExistenceErrors, every answer has the shape a
/// real user's would (the factors the pool allows, a code "sent", a passkey asked for) and
/// every factor then fails as a wrong one does.
struct ChoiceSignIn: Sendable {
    let store: any Store
    let users: UserDirectory
    let decoys: Decoys
    let authSessions: AuthSessionBook
    let triggerCalls: TriggerCalls
    let challenges: SecondFactorChallenges
    let completion: SignInCompletion
    let tokenFamilies: TokenFamilies
    let passkeys: PasskeyAssertions
    let signUpSessions: SignUpSessions
}

/// What a step of choice-based sign-in leads to.
enum ChoiceStep: Sendable {
    /// A password factor, for ``SignIn`` to check: PASSWORD (`parameters` carry PASSWORD) or
    /// PASSWORD_SRP (SRP_A), with USERNAME, SECRET_HASH and DEVICE_KEY as the sign-in had them.
    case password(ChallengeNameType, parameters: [String: String])
    case outcome(AuthOutcome)
}

extension ChoiceSignIn {
    static let preferredChallenge = "PREFERRED_CHALLENGE"
    /// One-time codes of choice-based sign-in have eight digits, as Cognito's.
    static let codeDigits = 8

    /// InitiateAuth USER_AUTH: with `session` (ConfirmSignUp's), the user just confirmed signs
    /// in; else the user's factors are found and the preferred one begins, when the user can
    /// use it, or the user is asked to choose (SELECT_CHALLENGE). Returns the step and the
    /// factors offered (`AvailableChallenges`).
    func start(_ parameters: [String: String], session: String?, clientMetadata: [String: String]?, pool: PoolRecord,
               client: ClientRecord) async throws -> (ChoiceStep, available: [ChallengeNameType]?) {
        if let session, !session.isEmpty {
            let result = try await store.transaction { transaction in
                let user = try await signUpSessions.signIn(
                    with: session, parameters: parameters, pool: pool, client: client, in: transaction)
                return try await completion.completeFirstFactor(
                    user, pool: pool, client: client, device: parameters[AuthParameter.deviceKey], in: transaction)
            }
            return (.outcome(try await tokenFamilies.outcome(
                of: result, clientMetadata: clientMetadata, pool: pool, client: client)), nil)
        }
        let typed = try AuthParameter.require(AuthParameter.username, in: parameters)
        let (found, facts) = try await store.read { transaction -> (UserRecord?, FirstFactors.UserFacts?) in
            guard let user = try await users.findUser(typed, in: pool, transaction) else { return (nil, nil) }
            let mfa = try await transaction.userMfa(poolId: pool.id, sub: user.sub)
            let passkeys = try await transaction.passkeyCount(poolId: pool.id, userSub: user.sub)
            return (user, FirstFactors.UserFacts(user, mfa: mfa, passkeys: passkeys))
        }
        try client.checkSecretHash(
            parameters[AuthParameter.secretHash], usernames: [typed] + (found.map { [$0.username, $0.sub] } ?? []))
        guard found != nil || client.preventsUserExistenceErrors else { throw CognitoError.userNotFound }
        try await triggerCalls.runPreAuthentication(
            user: found, typed: typed, pool: pool, client: client, clientMetadata: clientMetadata)
        let available = try Self.offered(to: found, facts: facts, pool: pool)
        let device = parameters[AuthParameter.deviceKey]
        if let preferred = parameters[Self.preferredChallenge].map(ChallengeNameType.init(rawValue:)),
            available.contains(preferred)
        {
            return (try await begin(preferred, typed: typed, user: found, facts: facts, parameters: parameters,
                                    device: device, pool: pool, client: client), available)
        }
        let state = ChoiceSessionState(
            username: found?.username ?? typed, deviceKey: device,
            decoySubject: found == nil ? decoys.decoySubject(for: typed, pool: pool) : nil)
        let session = try await store.write { transaction in
            try await authSessions.openAuthSession(
                .challenge(.selectChallenge), state: state, user: found, pool: pool, client: client, encoding: .session,
                in: transaction)
        }
        return (.outcome(.challenge(.selectChallenge, parameters: ["USERNAME": state.username], session: session)), available)
    }

    /// SELECT_CHALLENGE answered (`ANSWER`: one of the factors offered, with PASSWORD or SRP_A
    /// for a password factor): that factor begins. The session is used up.
    func answerSelection(_ responses: [String: String], session: String, pool: PoolRecord,
                         client: ClientRecord) async throws -> ChoiceStep {
        let username = try AuthParameter.require(AuthParameter.username, in: responses)
        let answer = ChallengeNameType(rawValue: try AuthParameter.require("ANSWER", in: responses))
        let (state, user, facts) = try await store.transaction { transaction in
            let pending = try await authSessions.readAuthSession(
                session, challenge: .challenge(.selectChallenge), as: ChoiceSessionState.self, pool: pool, client: client,
                in: transaction)
            var user: UserRecord?, facts: FirstFactors.UserFacts?
            if let sub = pending.record.userSub {
                guard let found = try await transaction.user(poolId: pool.id, sub: sub, forUpdate: false) else {
                    throw AuthSessions.invalid
                }
                let mfa = try await transaction.userMfa(poolId: pool.id, sub: sub)
                let passkeys = try await transaction.passkeyCount(poolId: pool.id, userSub: sub)
                (user, facts) = (found, FirstFactors.UserFacts(found, mfa: mfa, passkeys: passkeys))
            }
            try authSessions.checkAnswerNames(
                username, sessionUsername: pending.state.username, user: user, responses: responses, pool: pool,
                client: client)
            try await authSessions.consumeAuthSession(pending.record, in: transaction)
            return (pending.state, user, facts)
        }
        let available = try Self.offered(to: user, facts: facts, pool: pool)
        guard available.contains(answer) else {
            throw CognitoError.invalidParameter("ANSWER must be one of \(SecondFactorChallenges.jsonList(available)).")
        }
        var parameters = responses
        parameters[AuthParameter.username] = state.username
        parameters[AuthParameter.deviceKey] = state.deviceKey
        return try await begin(
            answer, typed: state.username, user: user, facts: facts, parameters: parameters, device: state.deviceKey,
            pool: pool, client: client)
    }

    /// The factors offered to `user` (nil: a name that is no user, offered the decoy's).
    /// A user who can use none is told so as the password flows tell it.
    private static func offered(to user: UserRecord?, facts: FirstFactors.UserFacts?, pool: PoolRecord) throws
        -> [ChallengeNameType]
    {
        guard let user, let facts else { return FirstFactors.decoy(pool: pool) }
        let available = FirstFactors.available(facts, pool: pool)
        guard available.isEmpty else { return available }
        if user.status == .unconfirmed { throw CognitoError.userNotConfirmed }
        throw CognitoError.incorrectCredentials
    }

    /// Begins `factor`, one the user is offered.
    private func begin(_ factor: ChallengeNameType, typed: String, user: UserRecord?, facts: FirstFactors.UserFacts?,
                       parameters: [String: String], device: String?, pool: PoolRecord,
                       client: ClientRecord) async throws -> ChoiceStep {
        switch factor {
        case .password:
            _ = try AuthParameter.require(AuthParameter.password, in: parameters)
            return .password(.password, parameters: parameters)
        case .passwordSrp:
            _ = try AuthParameter.require(AuthParameter.srpA, in: parameters)
            return .password(.passwordSrp, parameters: parameters)
        case .emailOtp, .smsOtp:
            guard let user else {
                return .outcome(try await decoyCodeChallenge(factor, typed: typed, device: device, pool: pool, client: client))
            }
            let state = MfaSessionState(username: user.username, deviceKey: device, firstFactor: true)
            let result = try await store.transaction { transaction in
                try await challenges.sendMfaCode(
                    factor, user: user, state: state, pool: pool, client: client, digits: Self.codeDigits, in: transaction)
            }
            return .outcome(try await tokenFamilies.outcome(of: result, clientMetadata: nil, pool: pool, client: client))
        case .webAuthn:
            let verification = facts.map { FirstFactors.passkeyNeedsUserVerification($0, pool: pool) } ?? false
            return .outcome(try await store.write { transaction in
                try await passkeys.challenge(
                    for: user, typed: typed, userVerificationRequired: verification, device: device, pool: pool,
                    client: client, in: transaction)
            })
        default:
            throw CognitoError.invalidParameter("\(factor.rawValue) is not a first factor.")
        }
    }

    /// The code challenge of a name that is no user: the shape of a real one, no code sent.
    private func decoyCodeChallenge(_ factor: ChallengeNameType, typed: String, device: String?, pool: PoolRecord,
                                    client: ClientRecord) async throws -> AuthOutcome {
        let destination = decoys.decoyDestination(
            for: typed, attribute: SecondFactorChallenges.codeAttribute(of: factor), pool: pool)
        let state = MfaSessionState(
            username: typed, deviceKey: device, decoySubject: decoys.decoySubject(for: typed, pool: pool), firstFactor: true)
        let session = try await store.write { transaction in
            try await authSessions.openAuthSession(
                .challenge(factor), state: state, user: nil, pool: pool, client: client, encoding: .session, in: transaction)
        }
        return .challenge(factor, parameters: [
            "CODE_DELIVERY_DELIVERY_MEDIUM": destination.medium.rawValue, "CODE_DELIVERY_DESTINATION": destination.masked,
            "USER_ID_FOR_SRP": typed,
        ], session: session)
    }

    /// WEB_AUTHN answered (`CREDENTIAL`: the authenticator's AuthenticationResponseJSON): the
    /// assertion is checked against the challenge and the user's passkey (``PasskeyAssertions``)
    /// and the user signed in without a second factor. The session is used up whatever the
    /// outcome.
    func answerPasskey(_ responses: [String: String], session: String, clientMetadata: [String: String]?,
                       pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        let username = try AuthParameter.require(AuthParameter.username, in: responses)
        let response = try PasskeyAssertionResponse(json: try AuthParameter.require("CREDENTIAL", in: responses))
        let result = try await store.transaction { transaction in
            let pending = try await authSessions.readAuthSession(
                session, challenge: .challenge(.webAuthn), as: PasskeySignInState.self, pool: pool, client: client,
                in: transaction)
            let user = try await pending.record.userSub.asyncFlatMap {
                try await transaction.user(poolId: pool.id, sub: $0, forUpdate: true)
            }
            try authSessions.checkAnswerNames(
                username, sessionUsername: pending.state.username, user: user, responses: responses, pool: pool,
                client: client)
            try await authSessions.consumeAuthSession(pending.record, in: transaction)
            guard let user, pending.state.decoySubject == nil else {
                throw CommitAndFail(.notAuthorized("The passkey is not registered for this user."))
            }
            do {
                try await passkeys.verify(response, state: pending.state, user: user, in: transaction)
            } catch let error as CognitoError {
                throw CommitAndFail(error)
            }
            return try await completion.completePasswordless(
                user, factor: .webAuthn, pool: pool, client: client, device: pending.state.deviceKey, in: transaction)
        }
        return try await tokenFamilies.outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
    }
}
