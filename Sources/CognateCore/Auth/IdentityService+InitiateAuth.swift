import CognateProtocol
import Foundation

extension IdentityService {
    public func initiateAuth(_ request: InitiateAuthRequest) async throws -> InitiateAuthResponse {
        let (pool, client) = try await requireClient(request.clientId)
        if [.adminNoSrpAuth, .adminUserPasswordAuth].contains(request.authFlow) {
            throw CognitoError.invalidParameter("Initiate Auth method not supported.")
        }
        return try await authenticate(request.authFlow, request.authParameters ?? [:], pool: pool, client: client)
            .initiateAuthResponse
    }

    public func adminInitiateAuth(_ request: AdminInitiateAuthRequest) async throws -> AdminInitiateAuthResponse {
        let (pool, client) = try await requireClient(request.clientId, poolId: request.userPoolId)
        if [.userPasswordAuth].contains(request.authFlow) {
            throw CognitoError.invalidParameter("Initiate Auth method not supported.")
        }
        return try await authenticate(request.authFlow, request.authParameters ?? [:], pool: pool, client: client)
            .adminInitiateAuthResponse
    }

    func authenticate(_ flow: AuthFlowType, _ parameters: [String: String], pool: PoolRecord, client: ClientRecord)
        async throws -> AuthOutcome
    {
        let allowed = ClientSettings.allowedFlows(client.settings)
        func require(_ flag: ExplicitAuthFlowsType) throws {
            guard allowed.contains(flag) else {
                throw CognitoError.invalidParameter("\(flow.rawValue) flow not enabled for this client")
            }
        }
        switch flow {
        case .userPasswordAuth:
            try require(.allowUserPasswordAuth)
            return try await passwordAuth(parameters, pool: pool, client: client)
        case .adminUserPasswordAuth, .adminNoSrpAuth:
            try require(.allowAdminUserPasswordAuth)
            return try await passwordAuth(parameters, pool: pool, client: client)
        case .refreshTokenAuth, .refreshToken:
            try require(.allowRefreshTokenAuth)
            return try await refreshAuth(parameters, pool: pool, client: client)
        default:
            throw CognitoError(.unsupportedOperation, "The \(flow.rawValue) flow is not supported by this server yet.")
        }
    }

    /// USER_PASSWORD_AUTH / ADMIN_USER_PASSWORD_AUTH: the password is checked against the SRP
    /// verifier (one exponentiation), then the user's state decides what follows.
    func passwordAuth(_ parameters: [String: String], pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        let typed = try AuthParameter.require(AuthParameter.username, in: parameters)
        let password = try AuthParameter.require(AuthParameter.password, in: parameters)
        let user = try await store.read { try await self.findUser(typed, in: pool, $0) }
        guard let user else {
            try client.checkSecretHash(parameters[AuthParameter.secretHash], usernames: [typed])
            // Spend what a real check costs, so timing does not tell unknown users apart.
            _ = makePassword(password, username: typed, poolId: pool.id)
            throw client.preventsUserExistenceErrors ? CognitoError.incorrectCredentials : CognitoError.userNotFound
        }
        try client.checkSecretHash(parameters[AuthParameter.secretHash], usernames: [typed, user.username, user.sub])
        guard let stored = user.password,
            SRPServer.matches(
                secret: password, salt: stored.salt, realm: SRPDerivation.poolName(ofPoolId: pool.id),
                identity: user.username, verifier: stored.verifier)
        else { throw CognitoError.incorrectCredentials }
        return try await completeFirstFactor(user, pool: pool, client: client)
    }

    /// What follows a correct password: the user's state decides (cognito-protocol §3.3).
    func completeFirstFactor(_ user: UserRecord, pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        guard user.enabled else { throw CognitoError.userDisabled }
        switch user.status {
        case .unconfirmed: throw CognitoError.userNotConfirmed
        case .resetRequired: throw CognitoError.passwordResetRequired
        case .forceChangePassword:
            throw CognitoError(.unsupportedOperation, "NEW_PASSWORD_REQUIRED is not supported by this server yet.")
        default: break
        }
        return .tokens(try await startTokenFamily(for: user, pool: pool, client: client))
    }

    /// Issues the tokens of a new authentication: a new token family with its refresh token.
    func startTokenFamily(for user: UserRecord, pool: PoolRecord, client: ClientRecord) async throws -> IssuedTokens {
        let now = time.now
        let refreshToken = Base64URL.encode(random.bytes(48))
        let family = TokenFamilyRecord(
            originJti: random.uuid(), poolId: pool.id, clientId: client.clientId, userSub: user.sub,
            refreshTokenHash: RefreshTokens.hash(refreshToken), authTime: now, createdAt: now,
            expiresAt: now.addingTimeInterval(TokenValidity(client: client.settings).refreshToken))
        try await store.write { try await $0.insertTokenFamily(family) }
        let minted = try tokens.issue(
            TokenContext(pool: pool, client: client, user: user, originJti: family.originJti, authTime: now), now: now)
        return IssuedTokens(
            idToken: minted.idToken, accessToken: minted.accessToken, refreshToken: refreshToken, expiresIn: minted.expiresIn)
    }

    /// REFRESH_TOKEN_AUTH: new ID and access tokens of the same family; the refresh token stays.
    func refreshAuth(_ parameters: [String: String], pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        let token = try AuthParameter.require(AuthParameter.refreshToken, in: parameters)
        let now = time.now
        let (family, user) = try await store.read { transaction -> (TokenFamilyRecord, UserRecord) in
            guard let family = try await transaction.tokenFamily(refreshTokenHash: RefreshTokens.hash(token)),
                family.clientId == client.clientId, family.poolId == pool.id,
                let user = try await transaction.user(poolId: pool.id, sub: family.userSub)
            else { throw CognitoError.invalidRefreshToken }
            return (family, user)
        }
        guard family.revokedAt == nil else { throw CognitoError.revokedRefreshToken }
        guard now < family.expiresAt else { throw CognitoError.notAuthorized("Refresh Token has expired") }
        var usernames = [user.username, user.sub]
        if let typed = parameters[AuthParameter.username] { usernames.append(typed) }
        try client.checkSecretHash(parameters[AuthParameter.secretHash], usernames: usernames)
        guard user.enabled else { throw CognitoError.userDisabled }
        let minted = try tokens.issue(
            TokenContext(pool: pool, client: client, user: user, originJti: family.originJti, authTime: family.authTime),
            now: now)
        return .tokens(IssuedTokens(idToken: minted.idToken, accessToken: minted.accessToken, refreshToken: nil,
                                    expiresIn: minted.expiresIn))
    }
}
