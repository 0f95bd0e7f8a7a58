import CognateProtocol
import Foundation

extension IdentityService {
    /// What follows a correct first factor (password or SRP): the user's state decides
    /// (cognito-protocol §3.3): disabled, unconfirmed and reset-required users are refused;
    /// users with a temporary password must choose a new one; everyone else gets tokens.
    func completeFirstFactor(_ user: UserRecord, pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        guard user.enabled else { throw CognitoError.userDisabled }
        switch user.status {
        case .unconfirmed: throw CognitoError.userNotConfirmed
        case .resetRequired: throw CognitoError.passwordResetRequired
        case .forceChangePassword:
            let validityDays = pool.settings.policies?.passwordPolicy?.temporaryPasswordValidityDays ?? 7
            if validityDays > 0, let set = user.passwordUpdatedAt,
                time.now.timeIntervalSince(set) > TimeInterval(validityDays) * 86_400
            {
                throw CognitoError.notAuthorized("Temporary password has expired and must be reset by an administrator.")
            }
            return try await newPasswordChallenge(for: user, pool: pool, client: client)
        default:
            return .tokens(try await startTokenFamily(for: user, pool: pool, client: client))
        }
    }

    /// Issues the tokens of a new authentication: a new token family with its refresh token.
    func startTokenFamily(for user: UserRecord, pool: PoolRecord, client: ClientRecord) async throws -> IssuedTokens {
        let now = time.now
        let refreshToken = Base64URL.encode(random.bytes(48))
        let family = TokenFamilyRecord(
            originJti: random.uuid(), poolId: pool.id, clientId: client.clientId, userSub: user.sub,
            refreshTokenHash: RefreshTokens.hash(refreshToken), authTime: now, createdAt: now,
            expiresAt: now.addingTimeInterval(TokenValidity(client: client.settings).refreshToken))
        let groups = try await store.write { transaction in
            try await transaction.insertTokenFamily(family)
            return try await transaction.groups(ofUser: user.sub, poolId: pool.id)
        }
        let minted = try tokens.issue(
            TokenContext(pool: pool, client: client, user: user, originJti: family.originJti, authTime: now, groups: groups),
            now: now)
        return IssuedTokens(
            idToken: minted.idToken, accessToken: minted.accessToken, refreshToken: refreshToken, expiresIn: minted.expiresIn)
    }

    /// REFRESH_TOKEN_AUTH: new ID and access tokens of the same family; the refresh token stays.
    func refreshAuth(_ parameters: [String: String], pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        let token = try AuthParameter.require(AuthParameter.refreshToken, in: parameters)
        let now = time.now
        let (family, user, groups) = try await store.read { transaction -> (TokenFamilyRecord, UserRecord, [GroupRecord]) in
            guard let family = try await transaction.tokenFamily(refreshTokenHash: RefreshTokens.hash(token)),
                family.clientId == client.clientId, family.poolId == pool.id,
                let user = try await transaction.user(poolId: pool.id, sub: family.userSub)
            else { throw CognitoError.invalidRefreshToken }
            return (family, user, try await transaction.groups(ofUser: user.sub, poolId: pool.id))
        }
        guard family.revokedAt == nil else { throw CognitoError.revokedRefreshToken }
        guard now < family.expiresAt else { throw CognitoError.notAuthorized("Refresh Token has expired") }
        var usernames = [user.username, user.sub]
        if let typed = parameters[AuthParameter.username] { usernames.append(typed) }
        try client.checkSecretHash(parameters[AuthParameter.secretHash], usernames: usernames)
        guard user.enabled else { throw CognitoError.userDisabled }
        let minted = try tokens.issue(
            TokenContext(pool: pool, client: client, user: user, originJti: family.originJti, authTime: family.authTime,
                         groups: groups),
            now: now)
        return .tokens(IssuedTokens(
            idToken: minted.idToken, accessToken: minted.accessToken, refreshToken: nil, expiresIn: minted.expiresIn))
    }
}
