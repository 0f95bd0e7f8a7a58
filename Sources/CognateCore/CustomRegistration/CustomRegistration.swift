import CognateProtocol
import Foundation

/// Custom registration (Cognate's own operations, docs/triggers.md "Custom registration"): an
/// account made by a conversation between the app and the pool's CustomRegistration function —
/// the app's data, the function's challenge with data of its own, the app's answer … — which
/// ends with the function creating the account, and the user signed in.
///
/// Contract: the operations are public, counted per app client as sign-ups are
/// (``RequestAllowances``), and refused where SignUp is (AllowAdminCreateUserOnly). Each
/// challenge's `RegistrationSession` is a stored session (``AuthSessions``): bound to the
/// pool and app client, used up by the answer that uses it — of concurrent answers, exactly one
/// — and expiring with the client's AuthSessionValidity. The account the function creates has
/// no password (the app registers a PIN, a passkey or uses one-time codes); it is confirmed,
/// signed in through ``SignInCompletion`` as any first factor is (MFA set-up where the pool
/// requires MFA, a new device where the pool tracks them), and tokens come with
/// PreTokenGeneration as in every sign-in. PreSignUp and PostConfirmation are not called: the
/// function itself decides who may register.
public struct CustomRegistration: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let directory: PoolDirectory
    let users: UserDirectory
    let allowances: RequestAllowances
    let authSessions: AuthSessionBook
    let authEvents: AuthEventRecorder
    let function: CustomRegistrationFunction
    let completion: SignInCompletion
    let tokenFamilies: TokenFamilies
}

extension CustomRegistration {
    /// The most text an app's `Data`, a function's `challengeData` or `customInformation` holds.
    static let maximumData = 16_384

    static let notConfigured = CognitoError.invalidParameter("Custom registration is not configured for the user pool.")
    static let refused = CognitoError.notAuthorized("Registration failed.")

    /// SetUserPoolCustomRegistration: names the function (or, without one, removes it).
    public func setUserPoolCustomRegistration(_ request: SetUserPoolCustomRegistrationRequest) async throws
        -> CustomRegistrationConfigurationResponse
    {
        let configuration = request.customRegistration
        let updated = try await directory.editPool(request.userPoolId) { $0.customRegistration = configuration }
        return CustomRegistrationConfigurationResponse(customRegistration: updated.customRegistration)
    }

    public func getUserPoolCustomRegistration(_ request: GetUserPoolCustomRegistrationRequest) async throws
        -> CustomRegistrationConfigurationResponse
    {
        let pool = try await directory.requirePool(request.userPoolId)
        return CustomRegistrationConfigurationResponse(customRegistration: pool.customRegistration)
    }

    /// StartCustomRegistration: the function sees the app's data first.
    public func startCustomRegistration(_ request: StartCustomRegistrationRequest) async throws
        -> CustomRegistrationResponse
    {
        let (pool, client) = try await admitted(request.clientId, secretHash: request.secretHash)
        return try await step(
            CustomRegistrationState(), data: request.data, clientMetadata: request.clientMetadata, pool: pool,
            client: client)
    }

    /// RespondToCustomRegistration: the answer to the pending challenge goes to the function,
    /// with the rounds before it. The session is used up whatever the function decides.
    public func respondToCustomRegistration(_ request: RespondToCustomRegistrationRequest) async throws
        -> CustomRegistrationResponse
    {
        let (pool, client) = try await admitted(request.clientId, secretHash: request.secretHash)
        let authSessions = self.authSessions
        let token = request.registrationSession
        let state = try await store.write { transaction in
            let pending = try await authSessions.readAuthSession(
                token, challenge: .customRegistration, as: CustomRegistrationState.self, pool: pool, client: client,
                in: transaction)
            try await authSessions.consumeAuthSession(pending.record, in: transaction)
            return pending.state
        }
        return try await step(
            state.answered(request.data), data: request.data, clientMetadata: request.clientMetadata, pool: pool,
            client: client)
    }

    /// The pool and app client of a request that may register: counted, its secret hash
    /// checked (over an empty username), in a pool with the function and open to sign-ups.
    private func admitted(_ clientId: String, secretHash: String?) async throws -> (PoolRecord, ClientRecord) {
        let (pool, client) = try await directory.requireClient(clientId)
        try await allowances.countRequest(.userCreation, client: client)
        try client.checkSecretHash(secretHash, usernames: [""])
        guard let configuration = pool.customRegistration else { throw Self.notConfigured }
        // Only clients the configuration names (all by default), and never one that offers
        // identity providers without the pool's own sign-in.
        let providers = client.settings.supportedIdentityProviders ?? []
        guard configuration.clientIds?.contains(client.clientId) ?? true, providers.isEmpty || providers.contains("COGNITO")
        else { throw CognitoError.notAuthorized("Custom registration is not enabled for this app client.") }
        if pool.settings.adminCreateUserConfig?.allowAdminCreateUserOnly == true {
            throw CognitoError.notAuthorized("SignUp is not permitted for this user pool.")
        }
        return (pool, client)
    }

    /// Asks the function what follows `state` and does it.
    private func step(_ state: CustomRegistrationState, data: String?, clientMetadata: [String: String]?,
                      pool: PoolRecord, client: ClientRecord) async throws -> CustomRegistrationResponse {
        guard state.rounds.count < CustomRegistrationState.maximumRounds, state.size <= CustomRegistrationState.maximumSize
        else { throw Self.refused }
        switch try await function.decide(state, data: data, pool: pool, client: client, clientMetadata: clientMetadata) {
        case .fail:
            throw Self.refused
        case .challenge(let challengeData, let privateParameters):
            var pending = state
            pending.pendingChallengeData = challengeData
            pending.privateParameters = privateParameters
            let next = pending
            let authSessions = self.authSessions
            let session = try await store.write { transaction in
                try await authSessions.openAuthSession(
                    .customRegistration, state: next, user: nil, pool: pool, client: client, encoding: .session,
                    in: transaction)
            }
            return CustomRegistrationResponse(registrationSession: session, challengeData: challengeData)
        case .createUser(let username, let attributes, let customInformation):
            let (user, outcome) = try await createAndSignIn(
                username: username, attributes: attributes, clientMetadata: clientMetadata, pool: pool, client: client)
            var response = CustomRegistrationResponse(userSub: user.sub, customInformation: customInformation)
            switch outcome {
            case .tokens(let tokens):
                response.authenticationResult = tokens.authenticationResult
            case .challenge(let name, let parameters, let session):
                response.challengeName = name
                response.challengeParameters = parameters
                response.session = session
            }
            return response
        }
    }
}
