import CognateProtocol
import Foundation

/// What a sign-in leaves: refresh (with rotation), sign-out and revocation.
public struct Sessions: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let directory: PoolDirectory
    let authenticator: AccessTokenAuthenticator
    let tokenFamilies: TokenFamilies
}

extension Sessions {
    /// GlobalSignOut: ends every session of the user — all refresh tokens and every access
    /// token issued from them (including the one making this call).
    public func globalSignOut(_ request: GlobalSignOutRequest) async throws -> GlobalSignOutResponse {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        let now = time.now
        try await store.write { try await tokenFamilies.endEverySession(of: caller.user.sub, pool: caller.pool, at: now, in: $0) }
        return GlobalSignOutResponse()
    }

    /// RevokeToken: ends one session — the refresh token and the access tokens issued from it.
    /// An unknown or already revoked token is not an error (nothing is revealed about it).
    public func revokeToken(_ request: RevokeTokenRequest) async throws -> RevokeTokenResponse {
        guard let client = try await directory.cachedClient(request.clientId) else { throw PoolDirectory.clientNotFound(request.clientId) }
        if client.secret != nil {
            guard let given = request.clientSecret, client.accepts(secret: given) else {
                throw CognitoError(.unauthorized, "Invalid client secret for client \(client.clientId)")
            }
        }
        guard client.settings.enableTokenRevocation != false else {
            throw CognitoError(.unsupportedOperation, "Token revocation is not enabled for this app client.")
        }
        if request.token.split(separator: ".").count == 3 {
            throw CognitoError(.unsupportedTokenType, "The token is not a refresh token.")
        }
        let now = time.now
        try await store.write { transaction in
            guard let family = try await transaction.tokenFamily(refreshTokenHash: RefreshTokens.hash(request.token)),
                family.clientId == client.clientId
            else { return }
            try await transaction.revokeTokenFamily(originJti: family.originJti, at: now)
        }
        return RevokeTokenResponse()
    }
}
