import CognateProtocol
import Foundation

extension IdentityService {
    /// GlobalSignOut: ends every session of the user — all refresh tokens and every access
    /// token issued from them (including the one making this call).
    public func globalSignOut(_ request: GlobalSignOutRequest) async throws -> GlobalSignOutResponse {
        let caller = try await authenticatedUser(request.accessToken)
        let now = time.now
        try await store.write { try await self.endEverySession(of: caller.user.sub, pool: caller.pool, at: now, in: $0) }
        return GlobalSignOutResponse()
    }

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

    /// RevokeToken: ends one session — the refresh token and the access tokens issued from it.
    /// An unknown or already revoked token is not an error (nothing is revealed about it).
    public func revokeToken(_ request: RevokeTokenRequest) async throws -> RevokeTokenResponse {
        guard let client = try await cachedClient(request.clientId) else { throw Self.clientNotFound(request.clientId) }
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
