import Foundation

/// How the app client's users may sign in, for an app that draws its own sign-in buttons.
public struct SignInOptions: Sendable, Equatable {
    public struct Provider: Sendable, Equatable {
        /// The provider's name in the pool (`Google`, `Corp`), as `signInWithWebUI(provider:)` takes it.
        public var name: String
        /// Its type: `Google`, `Facebook`, `LoginWithAmazon`, `SignInWithApple`, `OIDC`, `SAML`.
        public var type: String

        public init(name: String, type: String) {
            self.name = name
            self.type = type
        }
    }

    /// The pool's own sign-in (username and password, codes, passkeys).
    public var cognito: Bool
    /// The providers the client offers as buttons, in its order.
    public var providers: [Provider]
    /// The client's SAML providers are found by the user's email domain: ask for the address and
    /// pass its domain as `idp_identifier` (``AuthClient/signInWithWebUI(callbackURL:scopes:provider:presenter:)``
    /// takes a provider name; the hosted page's email field does the lookup).
    public var emailDiscovery: Bool

    public init(cognito: Bool, providers: [Provider], emailDiscovery: Bool) {
        self.cognito = cognito
        self.providers = providers
        self.emailDiscovery = emailDiscovery
    }
}

extension AuthClient {
    /// What the app client offers at sign-in (``SignInOptions``), read without credentials from
    /// Cognate's `/oauth2/identityProviders` at the OAuth base (what the client's hosted sign-in
    /// page shows). Cognate's extension: Amazon Cognito has no such endpoint, and answers
    /// ``AuthError/unsupportedOperation(_:)`` here; the client must use the OAuth endpoints
    /// (AllowedOAuthFlowsUserPoolClient), else `webSignIn(error: "invalid_client")`.
    public func signInOptions() async throws -> SignInOptions {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let body = "client_id=" + (configuration.clientId.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        let response: HTTPTransportResponse
        do {
            response = try await configuration.transport.send(HTTPTransportRequest(
                url: configuration.oauthBase.appendingPathComponent("oauth2/identityProviders"),
                headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8)))
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw AuthError.network(error)
        }
        struct Answer: Decodable {
            struct Provider: Decodable {
                var name: String
                var type: String
            }
            var cognito: Bool?
            var providers: [Provider]?
            var email_discovery: Bool?
            var error: String?
            var error_description: String?
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: response.body) else {
            guard response.statusCode != 404 else {
                throw AuthError.unsupportedOperation("The server does not list an app client's sign-in options (Cognate's extension).")
            }
            throw AuthError.invalidResponse("/oauth2/identityProviders answered \(response.statusCode) without JSON.")
        }
        if let error = answer.error { throw AuthError.webSignIn(error: error, description: answer.error_description ?? "") }
        guard response.statusCode == 200, let cognito = answer.cognito, let providers = answer.providers else {
            throw AuthError.invalidResponse("/oauth2/identityProviders answered \(response.statusCode).")
        }
        return SignInOptions(
            cognito: cognito, providers: providers.map { SignInOptions.Provider(name: $0.name, type: $0.type) },
            emailDiscovery: answer.email_discovery ?? false)
    }
}
