import CognateIdentityProtocol
import CognateProtocol
import Foundation

/// Verifies the entries of a Logins map against an identity pool's providers.
///
/// Contract: every entry verifies or the call fails (NotAuthorizedException, Cognito's
/// words); an entry names a provider the pool lists (CognitoIdentityProviders,
/// OpenIdConnectProviderARNs, SupportedLoginProviders), or `cognito-identity.amazonaws.com`
/// with this service's own OpenID token of a developer-authenticated identity.
struct LoginVerifier: Sendable {
    let userPools: UserPoolLogins
    let openIdConnect: OpenIdConnectLogins
    let inspection: TokenInspection
    let openIdTokens: OpenIdTokens

    /// Cognito's limits: at most 10 entries (the model), a token of at most 50,000 characters.
    func verify(_ logins: [String: String], pool: IdentityPoolRecord) async throws -> [VerifiedLogin] {
        var verified: [VerifiedLogin] = []
        for (name, token) in logins.sorted(by: { $0.key < $1.key }) {
            verified.append(try await verify(name: name, token: token, pool: pool))
        }
        return verified
    }

    private func verify(name: String, token: String, pool: IdentityPoolRecord) async throws -> VerifiedLogin {
        let settings = pool.settings
        if name == developerTokenLoginName {
            return try await openIdTokens.verifyDeveloperToken(token, pool: pool)
        }
        if UserPoolLoginName(name) != nil {
            guard let provider = settings.cognitoIdentityProviders?.first(where: { $0.providerName == name }) else {
                throw CognitoIdentityError.unsupportedProvider
            }
            return try await userPools.verify(token, name: name, provider: provider)
        }
        if let appId = settings.supportedLoginProviders?[name] {
            switch name {
            case "accounts.google.com", "appleid.apple.com":
                return try await openIdConnect.verify(token, name: name, audiences: Self.audiences(appId))
            case "graph.facebook.com":
                return try await inspection.facebook(token, appId: appId)
            case "www.amazon.com":
                return try await inspection.amazon(token, appIds: Self.audiences(appId))
            default:
                throw CognitoIdentityError.notAuthorized("Logins of \(name) are not supported by Cognate.")
            }
        }
        if (settings.openIdConnectProviderARNs ?? []).contains(where: { OpenIdConnectProviderName.name(arn: $0) == name }) {
            // An OIDC provider's audiences are its IAM registration's client ids, which Cognate
            // cannot read: any audience is accepted, as IAM does for a provider without any.
            return try await openIdConnect.verify(token, name: name, audiences: nil)
        }
        if name == settings.developerProviderName {
            throw CognitoIdentityError.notAuthorized(
                "Developer provider logins are given by GetOpenIdTokenForDeveloperIdentity, not by the app.")
        }
        throw CognitoIdentityError.unsupportedProvider
    }

    /// SupportedLoginProviders' value: one app id, or several separated by commas (Google:
    /// one client id per platform).
    static func audiences(_ appId: String) -> Set<String> {
        Set(appId.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }
}
