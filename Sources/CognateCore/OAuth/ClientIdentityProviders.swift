import CognateProtocol
import Foundation

/// The identity providers an app client offers on the hosted pages: its
/// `SupportedIdentityProviders` besides `COGNITO` that exist in the pool, in the client's
/// order — the sign-in page's buttons — and the one an `idp_identifier` names.
struct ClientIdentityProviders: Sendable {
    let store: any Store

    /// The client's providers that exist in its pool, `COGNITO` left out.
    func offered(by client: ClientRecord) async throws -> [IdentityProviderRecord] {
        let names = (client.settings.supportedIdentityProviders ?? []).filter { $0 != "COGNITO" }
        guard !names.isEmpty else { return [] }
        return try await store.read { transaction in
            var found: [IdentityProviderRecord] = []
            for name in names {
                if let provider = try await transaction.identityProvider(poolId: client.poolId, name: name) {
                    found.append(provider)
                }
            }
            return found
        }
    }

    /// The provider of the client one of whose `IdpIdentifiers` is `identifier` (compared
    /// without case, as email domains are); nil when none is.
    func provider(identifiedBy identifier: String, client: ClientRecord) async throws -> String? {
        let wanted = identifier.lowercased()
        return try await offered(by: client).first { $0.identifiers.contains { $0.lowercased() == wanted } }?.name
    }
}

/// What the hosted sign-in page offers an app client's users besides the pool's own sign-in.
public struct SignInOffer: Sendable {
    /// "Continue with …" buttons, in the client's order.
    public var buttons: [(name: String, type: IdentityProviderTypeType)] = []
    /// An email field that finds the provider by the address's domain: shown, as by Cognito's
    /// managed login, when every SAML provider of the client has IdpIdentifiers (those providers
    /// then get no buttons).
    public var emailDiscovery = false
    /// The pool's own sign-in (`COGNITO`): without it the page shows the providers alone.
    public var cognito = true

    public init(buttons: [(name: String, type: IdentityProviderTypeType)] = [], emailDiscovery: Bool = false,
                cognito: Bool = true) {
        self.buttons = buttons
        self.emailDiscovery = emailDiscovery
        self.cognito = cognito
    }
}

/// How an app client's users may sign in, as `/oauth2/identityProviders` tells an app that draws
/// its own buttons (Cognate's extension: what the client's hosted sign-in page shows anyway).
public struct ClientSignInOptions: Codable, Sendable, Equatable {
    public struct Provider: Codable, Sendable, Equatable {
        public var name: String
        public var type: String
    }

    public var client_id: String
    /// The pool's own sign-in (`COGNITO` among SupportedIdentityProviders).
    public var cognito: Bool
    /// The providers offered as buttons, in the client's order.
    public var providers: [Provider]
    /// The SAML providers are found by the email's domain (`idp_identifier`) instead.
    public var email_discovery: Bool
}

extension OAuth {
    /// ``ClientSignInOptions`` of `clientId`: only for an app client that uses the OAuth
    /// endpoints (AllowedOAuthFlowsUserPoolClient), as its hosted page would; `invalid_client`
    /// otherwise.
    public func signInOptions(clientId: String) async throws -> ClientSignInOptions {
        guard !clientId.isEmpty, clientId.count <= 128, let client = try? await directory.cachedClient(clientId),
            client.settings.allowedOAuthFlowsUserPoolClient == true
        else { throw OAuthError("invalid_client", "No app client with this client_id uses the OAuth endpoints.") }
        // Counted as the sign-in page it describes would be.
        try await store.write { try await self.allowances.consumeRequestAllowance(.hostedFlows, client: client, in: $0) }
        let offer = await signInOffer(clientId: clientId)
        return ClientSignInOptions(
            client_id: clientId, cognito: (client.settings.supportedIdentityProviders ?? []).contains("COGNITO"),
            providers: offer.buttons.map { ClientSignInOptions.Provider(name: $0.name, type: $0.type.rawValue) },
            email_discovery: offer.emailDiscovery)
    }

    /// What the hosted sign-in page offers for `clientId` (``SignInOffer``).
    public func signInOffer(clientId: String) async -> SignInOffer {
        guard let client = try? await directory.cachedClient(clientId),
            let providers = try? await ClientIdentityProviders(store: store).offered(by: client)
        else { return SignInOffer() }
        let saml = providers.filter { $0.type == .saml }
        let discovery = !saml.isEmpty && saml.allSatisfy { !$0.identifiers.isEmpty }
        return SignInOffer(
            buttons: providers.filter { !discovery || $0.type != .saml }.map { ($0.name, $0.type) }, emailDiscovery: discovery,
            cognito: (client.settings.supportedIdentityProviders ?? []).contains("COGNITO"))
    }

    /// The provider of `clientId` one of whose IdpIdentifiers is the domain of `email` (the
    /// part after its last `@`, without case); nil when none is.
    public func provider(forEmail email: String, clientId: String) async -> String? {
        guard email.count <= 320, let at = email.lastIndex(of: "@"), let client = try? await directory.cachedClient(clientId)
        else { return nil }
        let domain = String(email[email.index(after: at)...]).trimmingCharacters(in: .whitespaces)
        guard !domain.isEmpty, domain.count <= 40 else { return nil }
        return try? await ClientIdentityProviders(store: store).provider(identifiedBy: domain, client: client)
    }
}
