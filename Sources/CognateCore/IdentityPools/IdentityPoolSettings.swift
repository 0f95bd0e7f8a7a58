import CognateProtocol
import Foundation

/// Deployment settings of the identity-pool service (`cognito-identity`).
public struct IdentityPoolSettings: Sendable {
    /// The STS-compatible endpoint GetCredentialsForIdentity calls (AssumeRoleWithWebIdentity,
    /// which AWS's STS takes unsigned); nil: GetCredentialsForIdentity answers with an error that
    /// names the setting.
    public var stsEndpoint: URL?
    /// Base URLs that stand in for login providers' public ones, by Logins key:
    /// `accounts.google.com`, `appleid.apple.com` and OpenID Connect providers (their issuer,
    /// whose discovery document names the JWKS), `graph.facebook.com` (the Graph API) and
    /// `www.amazon.com` (Login with Amazon's API, `api.amazon.com`). Tests point them at fakes.
    public var providerURLs: [String: String]
    /// Lifetime of GetOpenIdToken's tokens (Cognito: 15 minutes).
    public var openIdTokenLifetime: TimeInterval

    public init(stsEndpoint: URL? = nil, providerURLs: [String: String] = [:], openIdTokenLifetime: TimeInterval = 900) {
        self.stsEndpoint = stsEndpoint
        self.providerURLs = providerURLs
        self.openIdTokenLifetime = openIdTokenLifetime
    }
}
