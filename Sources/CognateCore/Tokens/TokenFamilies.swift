import CognateProtocol
import Foundation

/// Token families — one per authentication — made, minted into JWTs after their commit, renewed and
/// ended.
struct TokenFamilies: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let tokens: TokenIssuer
    let triggerCalls: TriggerCalls
    let messenger: Messenger
    let sessionTracking: SessionTracking
}

extension TokenFamilies {
    /// A new token family of a sign-in, not stored yet, and its refresh token.
    func newTokenFamily(of user: UserRecord, client: ClientRecord, deviceKey: String?)
        -> (family: TokenFamilyRecord, refreshToken: String)
    {
        let now = time.now
        let refreshToken = Base64URL.encode(random.bytes(48))
        let family = TokenFamilyRecord(
            originJti: random.uuid(), poolId: client.poolId, clientId: client.clientId, userSub: user.sub,
            refreshTokenHash: RefreshTokens.hash(refreshToken), authTime: now, createdAt: now,
            expiresAt: now.addingTimeInterval(TokenValidity(client: client.settings).refreshToken), deviceKey: deviceKey)
        return (family, refreshToken)
    }

    /// The answer to a first factor, after its transaction committed: the pool's
    /// PostAuthentication and PreTokenGeneration functions run, then JWTs are signed — none of
    /// it while the database is held. A function that refuses revokes the new token family.
    func outcome(of result: FirstFactorResult, source: String = "TokenGeneration_Authentication",
                 clientMetadata: [String: String]?, pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        switch result {
        case .challenge(let outcome, let code):
            if let code {
                try await messenger.dispatch(
                    [(code.message, .authentication, code.user)], pool: pool, clientId: client.clientId,
                    clientMetadata: clientMetadata)
            }
            return outcome
        case .tokens(let family, let refreshToken, let user, let groups, let newDevice):
            let overrides: ClaimOverrides?
            do {
                try await triggerCalls.runPostAuthentication(user: user, pool: pool, client: client, clientMetadata: clientMetadata)
                overrides = try await triggerCalls.runPreTokenGeneration(
                    source, user: user, groups: groups, pool: pool, client: client, clientMetadata: clientMetadata)
            } catch {
                let now = time.now
                try? await store.write { try await $0.revokeTokenFamily(originJti: family.originJti, at: now) }
                throw error
            }
            let minted = try await tokens.issue(
                TokenContext(pool: pool, client: client, user: user, originJti: family.originJti, authTime: family.authTime,
                             groups: groups, overrides: overrides, deviceKey: family.deviceKey),
                now: time.now)
            RequestOrigin.verifiedCaller?.record(sub: user.sub, username: user.username)   // who signed in, for the audit
            try await sessionTracking.signedIn(family, pool: pool)
            return .tokens(IssuedTokens(
                idToken: minted.idToken, accessToken: minted.accessToken, refreshToken: refreshToken,
                expiresIn: minted.expiresIn,
                newDevice: newDevice.map { NewDeviceMetadataType(deviceKey: $0.deviceKey, deviceGroupKey: $0.groupKey) },
                originJti: family.originJti))
        }
    }

    /// The live token family of a refresh token of `client`, and its user and groups; refused
    /// when the family was revoked or expired, or the user may not have tokens now (disabled,
    /// or made to choose a new password). `authenticate` checks the caller first (SECRET_HASH).
    func refreshableFamily(
        _ token: String, pool: PoolRecord, client: ClientRecord,
        authenticate: (TokenFamilyRecord, UserRecord) throws -> Void = { _, _ in }
    ) async throws -> (TokenFamilyRecord, UserRecord, [GroupRecord]) {
        let now = time.now
        let (family, user, groups) = try await store.read { transaction -> (TokenFamilyRecord, UserRecord, [GroupRecord]) in
            let hash = RefreshTokens.hash(token)
            guard let (family, user, groups) = try await transaction.tokenFamilyWithUser(refreshTokenHash: hash),
                family.clientId == client.clientId, family.poolId == pool.id,
                // A rotated-out token only during its grace period.
                family.refreshTokenHash == hash || family.previousValidUntil.map({ now < $0 }) == true,
                let user
            else { throw CognitoError.invalidRefreshToken }
            return (family, user, groups)
        }
        try authenticate(family, user)
        guard family.revokedAt == nil else { throw CognitoError.revokedRefreshToken }
        guard now < family.expiresAt else { throw CognitoError.notAuthorized("Refresh Token has expired") }
        guard user.enabled else { throw CognitoError.userDisabled }
        // A user who must choose a new password gets no new tokens until they have.
        switch user.status {
        case .resetRequired: throw CognitoError.passwordResetRequired
        case .forceChangePassword: throw CognitoError.notAuthorized("User must change the temporary password to continue.")
        default: break
        }
        return (family, user, groups)
    }

    /// New ID and access tokens of an existing family (its scopes, its device), after the
    /// pool's PreTokenGeneration function; no new refresh token.
    func renewTokens(of family: TokenFamilyRecord, user: UserRecord, groups: [GroupRecord], source: String,
                     clientMetadata: [String: String]?, nonce: String? = nil, pool: PoolRecord,
                     client: ClientRecord) async throws -> IssuedTokens {
        let overrides = try await triggerCalls.runPreTokenGeneration(
            source, user: user, groups: groups, pool: pool, client: client, clientMetadata: clientMetadata)
        let minted = try await tokens.issue(
            TokenContext(pool: pool, client: client, user: user, originJti: family.originJti, authTime: family.authTime,
                         groups: groups, overrides: overrides, deviceKey: family.deviceKey, scopes: family.scopes,
                         nonce: nonce),
            now: time.now)
        try await sessionTracking.refreshed(family, pool: pool)
        return IssuedTokens(
            idToken: minted.idToken, accessToken: minted.accessToken, refreshToken: nil, expiresIn: minted.expiresIn,
            originJti: family.originJti)
    }
}

extension TokenFamilies {
    /// Ends everything the user is signed in with: every token family (refresh tokens and the
    /// access tokens issued from them), every PIN registered on their devices, and the
    /// remembered status of every device (which would let a password sign-in skip MFA).
    /// Whoever held a stolen token, device key or PIN must sign in again from scratch.
    func endEverySession(of userSub: String, pool: PoolRecord, at now: Date, in transaction: any StoreTransaction)
        async throws
    {
        try await transaction.revokeTokenFamilies(poolId: pool.id, userSub: userSub, at: now)
        try await transaction.withdrawDeviceTrust(poolId: pool.id, userSub: userSub, at: now)
    }
}
