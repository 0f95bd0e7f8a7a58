/// The app client a token or revocation request names, and the secret it gave (HTTP Basic, or
/// `client_id`/`client_secret` in the form), as the edge read them.
public struct OAuthClientCredentials: Sendable, Equatable {
    public var clientId: String?
    public var secret: String?

    public init(clientId: String?, secret: String?) {
        self.clientId = clientId
        self.secret = secret
    }
}

/// A request of `POST /oauth2/token` (RFC 6749 §3.2), parsed at the edge.
public struct TokenRequest: Sendable, Equatable {
    public enum Grant: Sendable, Equatable {
        case authorizationCode(code: String, redirectURI: String?, codeVerifier: String?)
        case refreshToken(String)
        case clientCredentials(scope: String?)
        /// A grant the request could not name: answered after the client is authenticated.
        case malformed(OAuthError)
    }

    public var client: OAuthClientCredentials
    public var grant: Grant

    public init(client: OAuthClientCredentials, grant: Grant) {
        self.client = client
        self.grant = grant
    }
}

/// A request of `POST /oauth2/revoke` (RFC 7009), parsed at the edge.
public struct RevocationRequest: Sendable, Equatable {
    public var client: OAuthClientCredentials
    /// The refresh token to revoke; nil when the request named none.
    public var token: String?

    public init(client: OAuthClientCredentials, token: String?) {
        self.client = client
        self.token = token
    }
}

/// The token endpoint's answer (RFC 6749 §5.1).
public struct TokenResponse: Sendable, Equatable, Encodable {
    public var accessToken: String
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: Int
    public var tokenType = "Bearer"

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", idToken = "id_token", refreshToken = "refresh_token", expiresIn = "expires_in"
        case tokenType = "token_type"
    }
}
