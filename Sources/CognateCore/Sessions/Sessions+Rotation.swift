import CognateProtocol
import Foundation

extension Sessions {
    /// GetTokensFromRefreshToken: new ID and access tokens for a refresh token, authenticated
    /// with the client's secret (not a SECRET_HASH). With the client's RefreshTokenRotation
    /// enabled a new refresh token comes too and replaces the presented one, which stays valid
    /// for the client's RetryGracePeriodSeconds (0–60) so a lost answer can be retried; after
    /// that only the new one works. Without rotation the refresh token stays.
    public func getTokensFromRefreshToken(_ request: GetTokensFromRefreshTokenRequest) async throws
        -> GetTokensFromRefreshTokenResponse
    {
        let (pool, client) = try await directory.requireClient(request.clientId)
        if client.secret != nil {
            guard let given = request.clientSecret, client.accepts(secret: given) else {
                throw CognitoError.notAuthorized("Unable to verify secret for client \(client.clientId)")
            }
        }
        guard ClientSettings.allowedFlows(client.settings).contains(.allowRefreshTokenAuth) else {
            throw CognitoError.invalidParameter("REFRESH_TOKEN_AUTH flow not enabled for this client")
        }
        let (family, user, groups) = try await tokenFamilies.refreshableFamily(request.refreshToken, pool: pool, client: client) { family, _ in
            guard request.deviceKey.map({ $0 == family.deviceKey }) ?? true else { throw CognitoError.invalidRefreshToken }
        }
        let rotated = try await tokenFamilies.rotateRefreshToken(request.refreshToken, of: family, client: client)
        var tokens = try await tokenFamilies.renewTokens(
            of: family, user: user, groups: groups, source: "TokenGeneration_RefreshTokens",
            clientMetadata: request.clientMetadata, pool: pool, client: client)
        tokens.refreshToken = rotated
        return GetTokensFromRefreshTokenResponse(authenticationResult: tokens.authenticationResult)
    }
}
