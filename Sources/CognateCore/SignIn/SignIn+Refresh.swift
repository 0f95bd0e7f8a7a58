import CognateProtocol
import Foundation

extension SignIn {
    /// REFRESH_TOKEN_AUTH: new ID and access tokens of the same family; the refresh token stays.
    /// A refresh token issued to a device is bound to it: a DEVICE_KEY naming another device
    /// is refused (none at all is accepted, for clients that do not send it). A client with
    /// refresh token rotation must refresh with GetTokensFromRefreshToken, as in Cognito.
    func refreshAuth(_ parameters: [String: String], clientMetadata: [String: String]?, pool: PoolRecord,
                     client: ClientRecord) async throws -> AuthOutcome {
        if client.settings.refreshTokenRotation?.feature == .enabled { throw Self.refreshNeedsRotation }
        let token = try AuthParameter.require(AuthParameter.refreshToken, in: parameters)
        let (family, user, groups) = try await tokenFamilies.refreshableFamily(token, pool: pool, client: client) { family, user in
            guard parameters[AuthParameter.deviceKey].map({ $0 == family.deviceKey }) ?? true else {
                throw CognitoError.invalidRefreshToken
            }
            var usernames = [user.username, user.sub]
            if let typed = parameters[AuthParameter.username] { usernames.append(typed) }
            try client.checkSecretHash(parameters[AuthParameter.secretHash], usernames: usernames)
        }
        return .tokens(try await tokenFamilies.renewTokens(
            of: family, user: user, groups: groups, source: "TokenGeneration_RefreshTokens", clientMetadata: clientMetadata,
            pool: pool, client: client))
    }

    static let refreshNeedsRotation = CognitoError.invalidParameter(
        "REFRESH_TOKEN_AUTH is not supported for app clients with refresh token rotation enabled: use GetTokensFromRefreshToken.")
}
