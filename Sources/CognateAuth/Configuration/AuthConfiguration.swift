import CognateProtocol
import Foundation

/// Everything an ``AuthClient`` needs to talk to one app client of one user pool.
///
/// The same configuration works against Cognate and Amazon Cognito: ``endpoint`` differs, and
/// against Cognito web sign-in needs ``oauthDomain`` (the pool's domain).
public struct AuthConfiguration: Sendable {
    /// Where the Cognito JSON API is served: Cognate's base URL (`http://127.0.0.1:9229`) or
    /// `https://cognito-idp.<region>.amazonaws.com`.
    public var endpoint: URL
    public var region: String
    public var userPoolId: String
    public var clientId: String
    /// The app client's secret, when it has one: requests then carry `SECRET_HASH`.
    public var clientSecret: String?
    /// Where tokens and registration progress are kept.
    public var tokenStore: any TokenStore
    /// The profile of ``tokenStore`` this client reads and writes; other profiles are untouched.
    public var profile: String
    /// Tokens are refreshed when the access token expires within this many seconds.
    public var refreshMargin: TimeInterval
    public var transport: any HTTPTransport
    /// The name this device is registered under in pools that track devices (ConfirmDevice).
    public var deviceName: String = "CognateAuth"
    /// The identity pool that gives AWS credentials (``AuthClient/authSession()``); nil: none.
    public var identityPoolId: String?
    /// Where the identity-pool API (`AWSCognitoIdentityService.*`) is served: ``endpoint`` when
    /// one was given (Cognate serves both APIs), else `https://cognito-identity.<region>.amazonaws.com/`.
    public var identityEndpoint: URL
    /// Cached AWS credentials are fetched again when they expire within this many seconds.
    public var credentialsRefreshMargin: TimeInterval = 300
    /// Where the hosted pages and OAuth endpoints (`/oauth2/authorize`, `/oauth2/token`,
    /// `/logout`) are served. Cognate serves them beside the API, so nil (the default) means
    /// ``endpoint``; Amazon Cognito serves them on the pool's domain,
    /// `https://<prefix>.auth.<region>.amazoncognito.com` or a custom domain, which must be given.
    public var oauthDomain: URL?
    /// The app client has refresh token rotation (`RefreshTokenRotation` enabled): refresh
    /// with `GetTokensFromRefreshToken` at once. Without it the SDK tries `REFRESH_TOKEN_AUTH`
    /// and switches by itself when the pool refuses it for a rotating client (one extra
    /// request, once per ``AuthClient``); either way each new refresh token is stored.
    public var refreshTokenRotation: Bool = false

    /// The base of the OAuth endpoints: ``oauthDomain``, else ``endpoint``.
    var oauthBase: URL { oauthDomain ?? endpoint }

    /// - Parameters:
    ///   - endpoint: the API base URL; nil means Amazon Cognito in `region`.
    ///   - region: the pool's region; nil takes it from `userPoolId` (`eu-west-1_AbC` → `eu-west-1`).
    ///   - identityPoolId: the identity pool for AWS credentials, if the app uses one.
    ///   - oauthDomain: the pool's domain for web sign-in (nil: `endpoint`, right for Cognate).
    ///   - refreshTokenRotation: whether the app client rotates refresh tokens (see
    ///     ``refreshTokenRotation``).
    public init(
        endpoint: URL? = nil, region: String? = nil, userPoolId: String, clientId: String, clientSecret: String? = nil,
        identityPoolId: String? = nil, oauthDomain: URL? = nil,
        tokenStore: any TokenStore, profile: String = "default", refreshMargin: TimeInterval = 300,
        refreshTokenRotation: Bool = false,
        transport: any HTTPTransport = URLSessionTransport()
    ) {
        self.oauthDomain = oauthDomain
        self.refreshTokenRotation = refreshTokenRotation
        let region = region ?? userPoolId.split(separator: "_").first.map(String.init) ?? "us-east-1"
        self.endpoint = endpoint ?? URL(string: "https://cognito-idp.\(region).amazonaws.com/")!
        self.identityEndpoint = endpoint ?? URL(string: "https://cognito-identity.\(region).amazonaws.com/")!
        self.identityPoolId = identityPoolId
        self.region = region
        self.userPoolId = userPoolId
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.tokenStore = tokenStore
        self.profile = profile
        self.refreshMargin = refreshMargin
        self.transport = transport
    }

    /// The same configuration for another profile of the same store (another user on this device).
    public func withProfile(_ profile: String) -> AuthConfiguration {
        var copy = self
        copy.profile = profile
        return copy
    }

    /// `SECRET_HASH` for a username, or nil when the client has no secret.
    func secretHash(for username: String) -> String? {
        clientSecret.map { SecretHash.compute(username: username, clientId: clientId, clientSecret: $0) }
    }

    /// The Logins key naming this user pool in identity-pool calls, as Cognito expects it and
    /// as the identity pool's CognitoIdentityProviders name it: `cognito-idp.<region>.amazonaws.com/<pool id>`.
    public var identityProviderName: String { "cognito-idp.\(region).amazonaws.com/\(userPoolId)" }

    /// The SRP realm: the pool id's part after "_".
    var poolName: String { SRPDerivation.poolName(ofPoolId: userPoolId) }
}
