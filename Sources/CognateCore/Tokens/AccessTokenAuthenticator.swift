import CognateProtocol
import Foundation

struct AccessTokenAuthenticator: Sendable {
    let time: any TimeSource
    let accessTokens: AccessTokenVerifier
    let snapshots: any UserSnapshots
    let directory: PoolDirectory
    let store: any Store
}

/// Who an access token speaks for.
struct AuthenticatedUser: Sendable {
    var pool: PoolRecord
    var client: ClientRecord
    var user: UserRecord
    var originJti: String
    /// The device the token was issued to, if any.
    var deviceKey: String?
    /// When the user last proved who they are (the token's `auth_time`; a refresh keeps it).
    var authTime: Date
}

extension AccessTokenAuthenticator {
    /// The user an access token speaks for, after checking signature, expiry, scope, revocation
    /// (GlobalSignOut, RevokeToken, deletion) and the user's state. Every operation that takes
    /// an access token goes through here. `onlyToAnswer`: the request writes nothing after it
    /// and answers with the user (GetUser), who may come from the node's cache
    /// (``UserSnapshots``).
    func authenticatedUser(_ accessToken: String, onlyToAnswer: Bool = false) async throws -> AuthenticatedUser {
        let claims = try await accessTokens.verify(accessToken, now: time.now)
        guard claims.scopes.contains("aws.cognito.signin.user.admin") else {
            throw CognitoError.notAuthorized("Access Token does not have required scopes")
        }
        guard let pool = try await directory.cachedPool(claims.poolId), let client = try await directory.cachedClient(claims.clientId),
            client.poolId == pool.id
        else { throw CognitoError.invalidAccessToken }
        return try await signedInUser(
            sub: claims.sub, originJti: claims.originJti, authTime: Date(timeIntervalSince1970: claims.authTime),
            pool: pool, client: client, onlyToAnswer: onlyToAnswer)
    }

    /// The user a sign-in speaks for — an access token's, or a hosted sign-in's proof
    /// (``RecentSignIn``) — once its token family stands (not revoked by GlobalSignOut,
    /// RevokeToken, an administrator or deletion) and the user may act (enabled, no reset pending).
    func signedInUser(sub: String, originJti: String, authTime: Date, pool: PoolRecord, client: ClientRecord,
                      onlyToAnswer: Bool = false) async throws -> AuthenticatedUser {
        let found = if onlyToAnswer {
            try await snapshots.user(poolId: pool.id, sub: sub, withTokenFamily: originJti)
        } else {
            try await store.read { try await $0.user(poolId: pool.id, sub: sub, withTokenFamily: originJti) }
        }
        guard let (user, family) = found else { throw CognitoError.userNotFound }
        guard let family, family.revokedAt == nil else { throw CognitoError.revokedAccessToken }
        guard user.enabled else { throw CognitoError.userDisabled }
        if user.status == .resetRequired { throw CognitoError.passwordResetRequired }
        RequestOrigin.verifiedCaller?.record(sub: user.sub, username: user.username)
        return AuthenticatedUser(pool: pool, client: client, user: user, originJti: originJti, deviceKey: family.deviceKey,
            authTime: authTime)
    }
}
