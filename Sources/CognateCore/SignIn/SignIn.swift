import CognateProtocol
import Foundation

/// Sign-in: every InitiateAuth flow and every challenge answer, up to the decision of
/// ``SignInCompletion``.
public struct SignIn: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let codes: CodeBook
    let triggers: Triggers
    let directory: PoolDirectory
    let users: UserDirectory
    let decoys: Decoys
    let authSessions: AuthSessionBook
    let messenger: Messenger
    let triggerCalls: TriggerCalls
    let migration: UserMigration
    let passwords: Passwords
    let attributeEditor: AttributeEditor
    let throttle: SignInThrottle
    let tokenFamilies: TokenFamilies
    let deviceTrust: DeviceTrust
    let completion: SignInCompletion
    let challenges: SecondFactorChallenges
    let choice: ChoiceSignIn
}

extension SignIn {
    public func initiateAuth(_ request: InitiateAuthRequest) async throws -> InitiateAuthResponse {
        let (pool, client) = try await directory.requireClient(request.clientId)
        if [.adminNoSrpAuth, .adminUserPasswordAuth].contains(request.authFlow) {
            throw CognitoError.invalidParameter("Initiate Auth method not supported.")
        }
        if request.authFlow == .userAuth {
            let (outcome, available) = try await userAuth(
                request.authParameters ?? [:], session: request.session, clientMetadata: request.clientMetadata, pool: pool,
                client: client)
            var response = outcome.initiateAuthResponse
            response.availableChallenges = available
            return response
        }
        return try await authenticate(
            request.authFlow, request.authParameters ?? [:], clientMetadata: request.clientMetadata, pool: pool, client: client
        ).initiateAuthResponse
    }

    public func adminInitiateAuth(_ request: AdminInitiateAuthRequest) async throws -> AdminInitiateAuthResponse {
        let (pool, client) = try await directory.requireClient(request.clientId, poolId: request.userPoolId)
        if request.authFlow == .userPasswordAuth {
            throw CognitoError.invalidParameter("Initiate Auth method not supported.")
        }
        if request.authFlow == .userAuth {
            let (outcome, available) = try await userAuth(
                request.authParameters ?? [:], session: request.session, clientMetadata: request.clientMetadata, pool: pool,
                client: client)
            var response = outcome.adminInitiateAuthResponse
            response.availableChallenges = available
            return response
        }
        return try await authenticate(
            request.authFlow, request.authParameters ?? [:], clientMetadata: request.clientMetadata, pool: pool, client: client
        ).adminInitiateAuthResponse
    }

    /// Starts a flow the client allows (cognito-protocol §3.2); `clientMetadata` goes to the
    /// pool's triggers.
    func authenticate(_ flow: AuthFlowType, _ parameters: [String: String], clientMetadata: [String: String]?,
                      pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome
    {
        do {
            let outcome = try await startFlow(flow, parameters, clientMetadata: clientMetadata, pool: pool, client: client)
            if case .tokens = outcome { ServiceMetrics.signIn(flow: flow, result: "tokens") } else {
                ServiceMetrics.signIn(flow: flow, result: "challenge")
            }
            return outcome
        } catch {
            ServiceMetrics.signIn(flow: flow, result: "failed")
            throw error
        }
    }

    private func startFlow(_ flow: AuthFlowType, _ parameters: [String: String], clientMetadata: [String: String]?,
                           pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome
    {
        try AuthParameter.checkBounds(parameters, member: "authParameters")
        let allowed = ClientSettings.allowedFlows(client.settings)
        func require(_ flag: ExplicitAuthFlowsType) throws {
            guard allowed.contains(flag) else {
                throw CognitoError.invalidParameter("\(flow.rawValue) flow not enabled for this client")
            }
        }
        switch flow {
        case .userPasswordAuth:
            try require(.allowUserPasswordAuth)
            return try await passwordAuth(parameters, clientMetadata: clientMetadata, pool: pool, client: client)
        case .adminUserPasswordAuth, .adminNoSrpAuth:
            try require(.allowAdminUserPasswordAuth)
            return try await passwordAuth(parameters, clientMetadata: clientMetadata, pool: pool, client: client)
        case .userSrpAuth:
            try require(.allowUserSrpAuth)
            return try await startSRP(parameters, clientMetadata: clientMetadata, pool: pool, client: client)
        case .customAuth:
            try require(.allowCustomAuth)
            return try await startCustomAuth(parameters, clientMetadata: clientMetadata, pool: pool, client: client)
        case .devicePinAuth:
            try require(.allowUserSrpAuth)
            return try await startPinAuth(parameters, pool: pool, client: client)
        case .refreshTokenAuth, .refreshToken:
            try require(.allowRefreshTokenAuth)
            return try await refreshAuth(parameters, clientMetadata: clientMetadata, pool: pool, client: client)
        default:
            throw CognitoError(.unsupportedOperation, "The \(flow.rawValue) flow is not supported by this server yet.")
        }
    }
}
