import CognateProtocol
import Foundation

extension OAuth {
    /// `POST /oauth2/token` (RFC 6749 §3.2): the client authenticates (a client with a secret
    /// must give it), then the grant decides — `authorization_code` (with PKCE),
    /// `refresh_token` (rotated for a client with RefreshTokenRotation, as
    /// GetTokensFromRefreshToken rotates), or `client_credentials` (a client with a secret, for
    /// the pool's custom scopes).
    ///
    /// A client named by its metadata document's URL is public (no secret is taken) and may use
    /// the grants both its document and its app client allow, never `client_credentials`; it
    /// refreshes tokens only where its app client has no secret (a refresh token carries no
    /// record of the name it was issued to, so it must not open a confidential client's tokens
    /// to a public one).
    public func tokenEndpoint(_ request: TokenRequest) async throws -> TokenResponse {
        let (pool, client, metadataClient) = try await authenticateOAuthClient(request.client)
        let settings = client.settings
        switch request.grant {
        case .malformed(let error):
            throw error
        case .authorizationCode(let code, let redirectURI, let verifier):
            guard settings.allowedOAuthFlowsUserPoolClient == true, (settings.allowedOAuthFlows ?? []).contains(.code) else {
                throw OAuthError.unauthorizedClient("The client may not use the authorization code grant.")
            }
            // A URL client gets a refresh token only where it may use one (see below).
            let refreshes = metadataClient.map { $0.document.grantTypes.contains("refresh_token") && client.secret == nil }
            return try await exchangeAuthorizationCode(
                code, redirectURI: redirectURI, codeVerifier: verifier, pool: pool, client: client,
                metadataURL: metadataClient?.url, withRefreshToken: refreshes ?? true)
        case .refreshToken(let token):
            guard ClientSettings.allowedFlows(settings).contains(.allowRefreshTokenAuth) else {
                throw OAuthError.unauthorizedClient("The client may not refresh tokens.")
            }
            if let metadataClient {
                guard metadataClient.document.grantTypes.contains("refresh_token"), client.secret == nil else {
                    throw OAuthError.unauthorizedClient("The client may not refresh tokens.")
                }
            }
            do {
                let (family, user, groups) = try await tokenFamilies.refreshableFamily(token, pool: pool, client: client)
                let rotated = try await tokenFamilies.rotateRefreshToken(token, of: family, client: client)
                let issued = try await tokenFamilies.renewTokens(
                    of: family, user: user, groups: groups, source: "TokenGeneration_RefreshTokens", clientMetadata: nil,
                    pool: pool, client: client)
                return TokenResponse(
                    accessToken: issued.accessToken,
                    idToken: family.scopes?.contains("openid") ?? true ? issued.idToken : nil, refreshToken: rotated,
                    expiresIn: issued.expiresIn)
            } catch let error as CognitoError {
                throw OAuthError.invalidGrant(error.message)
            }
        case .clientCredentials(let scope):
            guard metadataClient == nil, client.secret != nil, settings.allowedOAuthFlowsUserPoolClient == true,
                (settings.allowedOAuthFlows ?? []).contains(.clientCredentials)
            else { throw OAuthError.unauthorizedClient("The client may not use the client credentials grant.") }
            let scopes = try await store.read { try await OAuthScopes.grant(scope, client: client, forUsers: false, in: $0) }
            let issued = try await tokens.issueClientCredentials(pool: pool, client: client, scopes: scopes, now: time.now)
            return TokenResponse(accessToken: issued.accessToken, expiresIn: issued.expiresIn)
        }
    }

    /// `POST /oauth2/revoke`: ends the sign-in a refresh token belongs to (as RevokeToken).
    public func revokeEndpoint(_ request: RevocationRequest) async throws {
        let (_, client, metadataClient) = try await authenticateOAuthClient(request.client)
        // A public URL client must not revoke with its confidential app client's secret.
        if metadataClient != nil, client.secret != nil { throw OAuthError.invalidClient }
        guard let token = request.token, !token.isEmpty else { throw OAuthError.invalidRequest("token is missing.") }
        do {
            _ = try await sessions.revokeToken(RevokeTokenRequest(token: token, clientId: client.clientId, clientSecret: client.secret))
        } catch let error as CognitoError {
            throw OAuthError(error.code == .unsupportedTokenType ? "unsupported_token_type" : "invalid_request", error.message)
        }
    }

    /// `GET /oauth2/userInfo` with an access token that has the `openid` scope: the user's
    /// claims for the token's scopes (`email`, `phone`, `profile`; `sub` and `username` always),
    /// among the attributes the token's app client may read (its ReadAttributes), as strings,
    /// as Cognito answers.
    public func userInfo(accessToken: String) async throws -> [String: String] {
        let claims: AccessTokenClaims
        do {
            claims = try await accessTokens.verify(accessToken, now: time.now)
        } catch {
            throw OAuthError("invalid_token", "The access token is invalid or expired.")
        }
        guard claims.scopes.contains("openid") else {
            throw OAuthError("insufficient_scope", "The access token does not have the openid scope.")
        }
        // Only answers with the user: may come from the node's cache, as GetUser's.
        let read = try await snapshots.user(poolId: claims.poolId, sub: claims.sub, withTokenFamily: claims.originJti)
        guard let (user, family) = read, user.enabled, let family, family.revokedAt == nil,
            let (_, client) = try? await directory.requireClient(claims.clientId)
        else {
            throw OAuthError("invalid_token", "The access token has been revoked.")
        }
        // What the client may read (GetUser's and the ID token's rule), of what the scopes release.
        let readable = client.settings.readAttributes.map(Set.init)
        var info = ["sub": user.sub, "username": user.username]
        for (name, value) in user.attributes
        where readable?.contains(name) ?? true && (Self.userInfoScope(of: name).map(claims.scopes.contains) ?? false) {
            info[name] = value
        }
        return info
    }

    /// `GET /logout`: where the browser goes after signing out — the client's `logout_uri`,
    /// which must be one of its LogoutURLs exactly.
    public func logoutRedirect(clientId: String?, logoutURI: String?) async throws -> String {
        guard let clientId, let (_, client) = try? await directory.requireClient(clientId) else {
            throw AuthorizationPageError(message: "The client_id is missing or names no app client.")
        }
        guard let logoutURI, (client.settings.logoutURLs ?? []).contains(logoutURI) else {
            throw AuthorizationPageError(message: "The logout_uri is not one of the client's sign-out URLs.")
        }
        return logoutURI
    }

    /// The scope that releases an attribute in userInfo.
    private static func userInfoScope(of attribute: String) -> String? {
        switch attribute {
        case "sub": return nil
        case "email", "email_verified": return "email"
        case "phone_number", "phone_number_verified": return "phone"
        default: return attribute.hasPrefix("dev:") ? nil : "profile"
        }
    }

    /// The app client a token or revocation request comes from, authenticated; for a client
    /// named by URL, the app client its policy maps to and the resolved client (public: a
    /// secret sent with it is refused).
    private func authenticateOAuthClient(_ credentials: OAuthClientCredentials) async throws
        -> (PoolRecord, ClientRecord, MetadataDocumentClient?)
    {
        guard let clientId = credentials.clientId, !clientId.isEmpty else { throw OAuthError.invalidClient }
        if MetadataDocumentClients.isURL(clientId) {
            guard credentials.secret == nil, let resolved = try? await metadataClients.resolve(clientId) else {
                throw OAuthError.invalidClient
            }
            return (resolved.pool, resolved.client, resolved)
        }
        guard let (pool, client) = try? await directory.requireClient(clientId) else { throw OAuthError.invalidClient }
        if client.secret != nil {
            guard let given = credentials.secret, client.accepts(secret: given) else { throw OAuthError.invalidClient }
        }
        return (pool, client, nil)
    }
}
