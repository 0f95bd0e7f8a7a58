import CognateProtocol
import Foundation

/// User sessions (ListUserSessions, RevokeUserSession and their admin twins, and the pool's
/// and app clients' session configurations): a user's token sessions — one per sign-in, its
/// token family — across the pool's app clients, where the pool tracks sessions.
///
/// The hosted pages' single sign-on sessions are carried by browsers, not stored
/// (``HostedSessions``), so every session listed is of type TOKEN and
/// `RevokeAssociatedSessions=LINKED` revokes what NONE does (revoking a token family ends the
/// single sign-on session of its sign-in too).
public struct UserSessions: Sendable {
    let store: any Store
    let time: any TimeSource
    let directory: PoolDirectory
    let users: UserDirectory
    let authenticator: AccessTokenAuthenticator
    let sessionTracking: SessionTracking
}

extension UserSessions {
    /// Sessions listed per page, as Cognito's `SessionsListType` allows.
    static let pageSize = 125

    public func listUserSessions(_ request: ListUserSessionsRequest) async throws -> ListUserSessionsResponse {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        let (sessions, next) = try await page(
            of: caller.user, pool: caller.pool, current: caller.originJti, after: request.nextToken)
        return ListUserSessionsResponse(sessions: sessions, nextToken: next)
    }

    public func adminListUserSessions(_ request: AdminListUserSessionsRequest) async throws
        -> AdminListUserSessionsResponse
    {
        let (pool, user) = try await poolAndUser(request.userPoolId, request.username)
        let (sessions, next) = try await page(of: user, pool: pool, current: nil, after: request.nextToken)
        return AdminListUserSessionsResponse(sessions: sessions, nextToken: next)
    }

    /// RevokeUserSession: ends one of the signed-in user's sessions (its refresh token and the
    /// access tokens issued from it), never the one the request's access token belongs to.
    public func revokeUserSession(_ request: RevokeUserSessionRequest) async throws -> RevokeUserSessionResponse {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        try await revoke(request.sessionId, of: caller.user, pool: caller.pool, current: caller.originJti)
        return RevokeUserSessionResponse()
    }

    public func adminRevokeUserSession(_ request: AdminRevokeUserSessionRequest) async throws
        -> AdminRevokeUserSessionResponse
    {
        let (pool, user) = try await poolAndUser(request.userPoolId, request.username)
        try await revoke(request.sessionId, of: user, pool: pool, current: nil)
        return AdminRevokeUserSessionResponse()
    }

    public func getUserPoolSessionConfiguration(_ request: GetUserPoolSessionConfigurationRequest) async throws
        -> GetUserPoolSessionConfigurationResponse
    {
        let pool = try await directory.requirePool(request.userPoolId)
        let settings = pool.sessions ?? .defaults
        return GetUserPoolSessionConfigurationResponse(
            userPoolId: pool.id, userSessionTracking: settings.tracking ? .enabled : .disabled,
            tokenSession: UserPoolTokenSessionConfigType(maxPerUser: settings.maxPerUser))
    }

    /// SetUserPoolSessionConfiguration: tracking on or off, and the token sessions a user may
    /// have (1–100); the pool must be in the Essentials or Plus tier.
    public func setUserPoolSessionConfiguration(_ request: SetUserPoolSessionConfigurationRequest) async throws
        -> SetUserPoolSessionConfigurationResponse
    {
        let settings = PoolSessionSettings(
            tracking: request.userSessionTracking == .enabled, maxPerUser: request.tokenSession.maxPerUser)
        let pool = try await directory.editPool(request.userPoolId) { pool in
            try Self.requireTier(pool)
            pool.sessions = settings
        }
        return SetUserPoolSessionConfigurationResponse(
            userPoolId: pool.id, userSessionTracking: request.userSessionTracking, tokenSession: request.tokenSession)
    }

    public func getUserPoolClientSessionConfiguration(_ request: GetUserPoolClientSessionConfigurationRequest) async throws
        -> GetUserPoolClientSessionConfigurationResponse
    {
        let (pool, client) = try await directory.requireClient(request.clientId, poolId: request.userPoolId)
        return GetUserPoolClientSessionConfigurationResponse(
            userPoolId: pool.id, clientId: client.clientId,
            ssoSession: ClientSSOSessionConfigType(maxValidityMinutes: client.ssoSessionMaxValidityMinutes ?? 60))
    }

    /// SetUserPoolClientSessionConfiguration: how long the client may reuse an SSO session;
    /// kept as Cognito's (Cognate's hosted pages keep no SSO session), and only where the pool
    /// tracks sessions.
    public func setUserPoolClientSessionConfiguration(_ request: SetUserPoolClientSessionConfigurationRequest) async throws
        -> SetUserPoolClientSessionConfigurationResponse
    {
        let pool = try await directory.requirePool(request.userPoolId)
        try Self.requireTier(pool)
        try Self.requireTracking(pool)
        let minutes = request.ssoSession.maxValidityMinutes
        let client = try await directory.editClient(request.clientId, of: pool.id) { $0.ssoSessionMaxValidityMinutes = minutes }
        return SetUserPoolClientSessionConfigurationResponse(
            userPoolId: pool.id, clientId: client.clientId, ssoSession: ClientSSOSessionConfigType(maxValidityMinutes: minutes))
    }
}

extension UserSessions {
    /// A page of the user's sessions, oldest first, continuing after the session `after` names.
    private func page(of user: UserRecord, pool: PoolRecord, current: String?, after token: String?) async throws
        -> ([SessionDescriptionType], String?)
    {
        try Self.requireTracking(pool)
        let now = time.now
        let sessions = try await store.read { try await $0.userSessions(poolId: pool.id, userSub: user.sub, now: now) }
        var described = sessions.map { describe($0, current: current) }
        if let after = try PageToken.decode(token) {
            guard let index = described.firstIndex(where: { $0.sessionId == after }) else {
                throw CognitoError.invalidParameter("Invalid pagination token.")
            }
            described.removeFirst(index + 1)
        }
        let page = Array(described.prefix(Self.pageSize))
        let next = described.count > Self.pageSize ? PageToken.encode(page.last?.sessionId) : nil
        return (page, next)
    }

    private func describe(_ session: UserSessionRecord, current: String?) -> SessionDescriptionType {
        SessionDescriptionType(
            sessionId: sessionTracking.sessionId(of: session.family), sessionType: .token, clientId: session.family.clientId,
            createDate: session.family.createdAt, lastActiveDate: session.activity?.lastActiveAt ?? session.family.createdAt,
            deviceType: session.activity?.deviceType, lastIPAddress: session.activity?.address,
            isCurrentSession: session.family.originJti == current)
    }

    private func revoke(_ sessionId: String, of user: UserRecord, pool: PoolRecord, current: String?) async throws {
        try Self.requireTracking(pool)
        let now = time.now
        try await store.write { transaction in
            let sessions = try await transaction.userSessions(poolId: pool.id, userSub: user.sub, now: now)
            guard let session = sessions.first(where: { sessionTracking.sessionId(of: $0.family) == sessionId }) else {
                throw CognitoError.resourceNotFound("The user has no session \(sessionId).")
            }
            guard session.family.originJti != current else {
                throw CognitoError.invalidParameter("A session cannot be revoked with its own access token: use GlobalSignOut or RevokeToken.")
            }
            try await transaction.revokeTokenFamily(originJti: session.family.originJti, at: now)
        }
    }

    private func poolAndUser(_ poolId: String, _ username: String) async throws -> (PoolRecord, UserRecord) {
        let pool = try await directory.requirePool(poolId)
        return (pool, try await store.read { try await users.requireUser(username, in: pool, $0) })
    }

    private static func requireTracking(_ pool: PoolRecord) throws {
        guard pool.sessions?.tracking == true else {
            throw CognitoError(
                .operationNotEnabled,
                "Session tracking is not enabled for this user pool: enable it with SetUserPoolSessionConfiguration.")
        }
    }

    private static func requireTier(_ pool: PoolRecord) throws {
        guard pool.settings.userPoolTier != .lite else {
            throw CognitoError(
                .featureUnavailableInTier,
                "The following features need to be disabled for the LITE pricing tier configured: User session management")
        }
    }
}
