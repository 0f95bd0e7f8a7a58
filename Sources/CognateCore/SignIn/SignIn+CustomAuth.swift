import CognateProtocol
import Foundation

extension SignIn {
    /// CUSTOM_AUTH (cognito-protocol §3.2): the pool's DefineAuthChallenge function decides
    /// each step — issue tokens, fail, or ask a CUSTOM_CHALLENGE that CreateAuthChallenge
    /// makes and VerifyAuthChallengeResponse judges. With `CHALLENGE_NAME=SRP_A` the sign-in
    /// starts with the user's password proved by SRP (PASSWORD_VERIFIER), then goes on.
    /// PreAuthentication runs first; disabled, unconfirmed and reset-required users are
    /// refused before any function is asked.
    func startCustomAuth(_ parameters: [String: String], clientMetadata: [String: String]?, pool: PoolRecord,
                         client: ClientRecord) async throws -> AuthOutcome {
        guard triggers.isConfigured(.defineAuthChallenge, pool: pool) else { throw Self.customAuthNotConfigured }
        let typed = try AuthParameter.require(AuthParameter.username, in: parameters)
        let clientPublic = parameters["CHALLENGE_NAME"] == "SRP_A" ? try Self.clientPublicValue(parameters) : nil
        let found = try await store.read { try await users.findUser(typed, in: pool, $0) }
        try client.checkSecretHash(
            parameters[AuthParameter.secretHash], usernames: [typed] + (found.map { [$0.username, $0.sub] } ?? []))
        guard found != nil || client.preventsUserExistenceErrors else { throw CognitoError.userNotFound }
        try await triggerCalls.runPreAuthentication(user: found, typed: typed, pool: pool, client: client, clientMetadata: clientMetadata)
        if let found { try SignInCompletion.checkMaySignIn(found) }
        var state = CustomAuthSessionState(username: found?.username ?? typed, userNotFound: found == nil)
        if let clientPublic {
            state.clientPublic = SRPEncoding.hexString(clientPublic)
            state.steps = [.init(challengeName: AuthParameter.srpA, challengeResult: true)]
        }
        return try await continueCustomAuth(state, user: found, clientMetadata: clientMetadata, pool: pool, client: client)
    }

    /// CUSTOM_CHALLENGE answered: the session is used up whatever the verdict; the answer goes
    /// to VerifyAuthChallengeResponse, and DefineAuthChallenge, seeing the result, decides what
    /// follows (another challenge comes with a new session).
    func answerCustomChallenge(_ responses: [String: String], session: String, clientMetadata: [String: String]?,
                               pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        let answer = try AuthParameter.require("ANSWER", in: responses)
        let username = try AuthParameter.require(AuthParameter.username, in: responses)
        let (pending, user) = try await store.write { transaction in
            let pending = try await authSessions.readAuthSession(
                session, challenge: .customChallenge, as: CustomAuthSessionState.self, pool: pool, client: client,
                in: transaction)
            try await authSessions.consumeAuthSession(pending.record, in: transaction)
            guard let sub = pending.record.userSub else { return (pending, UserRecord?.none) }
            guard let user = try await transaction.user(poolId: pool.id, sub: sub) else { throw AuthSessions.invalid }
            return (pending, user)
        }
        let state = pending.state
        try authSessions.checkAnswerNames(
            username, sessionUsername: state.username, user: user, responses: responses, pool: pool, client: client)
        if let user { try SignInCompletion.checkMaySignIn(user) }
        let correct = try await triggerCalls.runVerifyAuthChallengeResponse(
            state, answer: answer, user: user, pool: pool, client: client, clientMetadata: clientMetadata)
        return try await continueCustomAuth(
            state.after(.customChallenge, correct: correct), user: user, clientMetadata: clientMetadata, pool: pool,
            client: client)
    }

    /// Asks DefineAuthChallenge what follows the steps so far and does it.
    func continueCustomAuth(_ state: CustomAuthSessionState, user: UserRecord?, clientMetadata: [String: String]?,
                            pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        guard state.steps.count < CustomAuthSessionState.maximumSteps else { throw CognitoError.incorrectCredentials }
        let decision = try await triggerCalls.runDefineAuthChallenge(
            state, user: user, pool: pool, client: client, clientMetadata: clientMetadata)
        switch decision {
        case .fail:
            throw CognitoError.incorrectCredentials
        case .issueTokens:
            // Nothing a function says signs in a user who does not exist.
            guard let user, !state.userNotFound else { throw CognitoError.incorrectCredentials }
            let result = try await store.transaction { transaction in
                guard let current = try await transaction.user(poolId: pool.id, sub: user.sub, forUpdate: true) else {
                    throw CognitoError.incorrectCredentials
                }
                return try await completion.completeFirstFactor(
                    current, pool: pool, client: client, askingForMfa: false, in: transaction)
            }
            return try await tokenFamilies.outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
        case .challenge(.customChallenge):
            let created = try await triggerCalls.runCreateAuthChallenge(
                state, user: user, pool: pool, client: client, clientMetadata: clientMetadata)
            var pending = state
            pending.privateParameters = created.privateParameters
            pending.challengeMetadata = created.metadata
            let next = pending
            let session = try await store.write { transaction in
                try await authSessions.openAuthSession(
                    .customChallenge, state: next, user: user, pool: pool, client: client, encoding: .session,
                    in: transaction)
            }
            var parameters = created.publicParameters
            parameters[AuthParameter.username] = state.username
            return .challenge(.customChallenge, parameters: parameters, session: session)
        case .challenge(.passwordVerifier):
            // Only a sign-in that sent SRP_A can prove a password, and only once.
            guard let clientPublic = state.clientPublic.flatMap(SRPEncoding.bytes(fromHex:)) else {
                throw Triggers.unrecognizable
            }
            var next = state
            next.clientPublic = nil
            return try await openPasswordVerifier(
                clientPublic: clientPublic, typed: state.username, user: user, customAuth: next, pool: pool, client: client)
        case .challenge:
            throw Triggers.unrecognizable
        }
    }

    static let customAuthNotConfigured = CognitoError.invalidParameter(
        "Custom auth lambda trigger is not configured for the user pool.")
}
