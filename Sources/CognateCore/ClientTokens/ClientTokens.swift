import CognateProtocol
import Foundation

/// GetClientToken: an access token for an app client acting for itself (machine to machine),
/// for its client ID and secret — the API's twin of `/oauth2/token`'s `client_credentials`
/// grant, with the same rules and the same token.
///
/// The client must have a secret and allow the client credentials grant
/// (`AllowedOAuthFlows: client_credentials`, `AllowedOAuthFlowsUserPoolClient`): Cognito's
/// documentation names an `ALLOW_CLIENT_TOKEN_AUTH` flow for this, which botocore's model does
/// not list among ExplicitAuthFlows, so the OAuth setting that already means "this client
/// gets tokens for itself" decides. Scopes are the pool's custom scopes the client allows
/// (all of them when none are asked for).
public struct ClientTokens: Sendable {
    let store: any Store
    let time: any TimeSource
    let directory: PoolDirectory
    let tokens: TokenIssuer
}

extension ClientTokens {
    public func getClientToken(_ request: GetClientTokenRequest) async throws -> GetClientTokenResponse {
        guard let (pool, client) = try? await directory.requireClient(request.clientId) else {
            throw CognitoError.notAuthorized("Client \(request.clientId) is not found.")
        }
        guard client.secret != nil, client.accepts(secret: request.secret) else {
            throw CognitoError.notAuthorized("Client \(request.clientId) secret is incorrect.")
        }
        let settings = client.settings
        guard settings.allowedOAuthFlowsUserPoolClient == true, (settings.allowedOAuthFlows ?? []).contains(.clientCredentials)
        else {
            throw CognitoError.notAuthorized("Client \(request.clientId) is not allowed to get tokens for itself "
                + "(AllowedOAuthFlows client_credentials).")
        }
        let scopes: [String]
        do {
            let asked = request.scopes.flatMap { $0.isEmpty ? nil : $0.joined(separator: " ") }
            scopes = try await store.read { try await OAuthScopes.grant(asked, client: client, forUsers: false, in: $0) }
        } catch let error as OAuthError {
            throw CognitoError.invalidParameter(error.description)
        }
        let issued = try await tokens.issueClientCredentials(pool: pool, client: client, scopes: scopes, now: time.now)
        return GetClientTokenResponse(clientAuthenticationResult: ClientAuthenticationResultType(
            accessToken: issued.accessToken, expiresIn: issued.expiresIn, tokenType: "Bearer"))
    }
}
