import CognateAuth
import CognateProtocol
import Foundation
import Testing

/// `signInOptions()`: the providers an app client offers, read without credentials, so an app
/// can draw its own buttons (Cognate's `/oauth2/identityProviders`).
struct SignInOptionsTests {
    @Test func anAppReadsTheProvidersItsClientOffers() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            _ = try await live.service.federation.createIdentityProvider(CreateIdentityProviderRequest(
                userPoolId: pool, providerName: "Google", providerType: .google,
                providerDetails: ["client_id": "1234.apps.googleusercontent.com", "client_secret": "s", "authorize_scopes": "openid email"]))
            _ = try await live.service.federation.createIdentityProvider(CreateIdentityProviderRequest(
                userPoolId: pool, providerName: "Partner", providerType: .oidc,
                providerDetails: ["client_id": "c", "client_secret": "s", "authorize_scopes": "openid",
                                  "authorize_url": "https://partner.example.com/authorize", "token_url": "https://partner.example.com/token"]))
            let created = try await live.service.clients.createUserPoolClient(CreateUserPoolClientRequest(
                userPoolId: pool, clientName: "web", supportedIdentityProviders: ["COGNITO", "Partner", "Google"],
                callbackURLs: ["myapp://callback"], allowedOAuthFlows: [.code], allowedOAuthScopes: ["openid"],
                allowedOAuthFlowsUserPoolClient: true)).userPoolClient
            let client = live.authClient(pool: pool, client: LiveServer.AppClient(id: try #require(created?.clientId), secret: nil))
            let options = try await client.signInOptions()
            #expect(options == SignInOptions(
                cognito: true, providers: [.init(name: "Partner", type: "OIDC"), .init(name: "Google", type: "Google")],
                emailDiscovery: false))

            // A client that does not use the OAuth endpoints has no sign-in page to describe.
            let plain = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            await #expect(throws: AuthError.webSignIn(error: "invalid_client",
                                                       description: "No app client with this client_id uses the OAuth endpoints.")) {
                try await plain.signInOptions()
            }
        }
    }
}
