import CognateProtocol
import Foundation

/// An authorization request of `/oauth2/authorize` (and of the hosted sign-in it leads to),
/// validated against its app client.
public struct AuthorizationRequest: Codable, Sendable, Equatable {
    /// The app client the sign-in is for (for a client named by URL, the one its CIMD policy maps to).
    public var clientId: String
    /// The client's metadata document URL, when the request named the client by it (`client_id`
    /// an https URL, docs/oauth.md "Client ID metadata documents"); nil for an app client's ID.
    public var metadataURL: String? = nil
    /// Exactly one of the client's CallbackURLs (of a client named by URL: of its document's
    /// `redirect_uris`).
    public var redirectURI: String
    /// `code` (authorization code, PKCE when `codeChallenge` is set) or `token` (implicit).
    public var responseType: String
    public var scopes: [String]
    public var state: String?
    /// BASE64URL(SHA-256(code_verifier)) (method S256, the only one Cognito takes).
    public var codeChallenge: String?
    public var nonce: String?
    /// A provider of the pool to sign in with (`identity_provider`); nil: the pool's own pages.
    public var identityProvider: String? = nil
    /// What the pages are for besides signing in to the app (nil: an authorization).
    public var purpose: HostedPurpose? = nil
    /// OpenID Connect's `prompt`: `login` shows the sign-in page even in a single sign-on
    /// session; `none` never shows it (without a session the app gets `login_required`).
    public var prompt: String? = nil

    /// The request as the query of `/login` or `/signup` (of `/passkeys/add`: the client and
    /// where the browser goes back to).
    public var query: String {
        if purpose == .addPasskey {
            return OAuth.formEncoded([("client_id", clientId), ("redirect_uri", redirectURI)])
        }
        var pairs = [("client_id", metadataURL ?? clientId), ("redirect_uri", redirectURI), ("response_type", responseType),
                     ("scope", scopes.joined(separator: " "))]
        if let state { pairs.append(("state", state)) }
        if let codeChallenge { pairs += [("code_challenge", codeChallenge), ("code_challenge_method", "S256")] }
        if let nonce { pairs.append(("nonce", nonce)) }
        if let prompt { pairs.append(("prompt", prompt)) }
        return OAuth.formEncoded(pairs)
    }

    /// The page the request's forms post to and its "Back to sign in" links lead to.
    public var pagePath: String { purpose == .addPasskey ? "/passkeys/add" : "/login" }
}

/// What hosted pages are for besides an authorization.
public enum HostedPurpose: String, Codable, Sendable {
    /// `/passkeys/add`: a signed-in user adds a passkey, then goes back to the app.
    case addPasskey
}

/// An authorization request refused in a way the app may be told: the browser goes back to
/// `redirectURI` with `error` (and the request's `state`).
public struct AuthorizationRedirectError: Error, Sendable {
    public var redirectURI: String
    public var state: String?
    public var error: OAuthError
}

extension OAuth {
    static let maximumStateLength = 2048
    static let maximumNonceLength = 512

    /// Validates `/oauth2/authorize`'s query. An unknown client, a client without OAuth, or a
    /// redirect URI the client does not list exactly throw ``AuthorizationPageError`` (an error
    /// page: never redirect to an address the client did not register); every other problem
    /// throws ``AuthorizationRedirectError``.
    ///
    /// A `client_id` that is an https URL names a client by its metadata document
    /// (``MetadataDocumentClients``): the app client its CIMD policy maps to takes its place,
    /// the document's `redirect_uris` replace the app client's callback URLs, and the request
    /// must use the code flow with PKCE (a public client), for scopes both the app client and
    /// the document allow.
    public func authorizationRequest(_ query: [String: String]) async throws -> AuthorizationRequest {
        let named = query["client_id"] ?? ""
        let metadataClient: MetadataDocumentClient?
        let client: ClientRecord
        if MetadataDocumentClients.isURL(named) {
            guard let resolved = try? await metadataClients.resolve(named) else {
                throw AuthorizationPageError(message: "The client_id URL names no client this server admits.")
            }
            (metadataClient, client) = (resolved, resolved.client)
        } else {
            guard !named.isEmpty, named.count <= 128, let (_, found) = try? await directory.requireClient(named) else {
                throw AuthorizationPageError(message: "The client_id is missing or names no app client.")
            }
            (metadataClient, client) = (nil, found)
        }
        let clientId = client.clientId
        let settings = client.settings
        guard settings.allowedOAuthFlowsUserPoolClient == true else {
            throw AuthorizationPageError(message: "The app client is not set up for OAuth sign-in (AllowedOAuthFlowsUserPoolClient).")
        }
        let registered = metadataClient?.document.redirectURIs ?? settings.callbackURLs ?? []
        guard let redirectURI = query["redirect_uri"] ?? (metadataClient == nil ? settings.defaultRedirectURI : nil),
            registered.contains(redirectURI)
        else { throw AuthorizationPageError(message: "redirect_mismatch: the redirect_uri is not one of the client's callback URLs.") }
        let state = query["state"]
        // Bounds of what a page carries (and a flow stores): no app needs more.
        guard (state?.count ?? 0) <= Self.maximumStateLength, (query["nonce"]?.count ?? 0) <= Self.maximumNonceLength else {
            throw AuthorizationPageError(message:
                "The state (at most \(Self.maximumStateLength) characters) or nonce (at most \(Self.maximumNonceLength)) is too long.")
        }
        func refuse(_ error: OAuthError) -> AuthorizationRedirectError {
            AuthorizationRedirectError(redirectURI: redirectURI, state: state, error: error)
        }
        let flows = settings.allowedOAuthFlows ?? []
        let responseType = query["response_type"] ?? ""
        switch responseType {
        case "code": guard flows.contains(.code) else { throw refuse(.unauthorizedClient("The client may not use the code flow.")) }
        case "token":
            guard flows.contains(.implicit) else { throw refuse(.unauthorizedClient("The client may not use the implicit flow.")) }
        default: throw refuse(OAuthError("unsupported_response_type", "response_type must be code or token."))
        }
        var provider = query["identity_provider"].flatMap { $0 == "COGNITO" ? nil : $0 }
        // `idp_identifier` (an email domain, or any of a provider's IdpIdentifiers) picks the
        // client's provider that has it, where `identity_provider` does not name one.
        if query["identity_provider"] == nil, let identifier = query["idp_identifier"], !identifier.isEmpty {
            guard identifier.count <= 40,
                let named = try await ClientIdentityProviders(store: store).provider(identifiedBy: identifier, client: client)
            else { throw refuse(.invalidRequest("No identity provider of the client has the identifier \(identifier.prefix(40)).")) }
            provider = named
        }
        // Without a provider the sign-in page offers what the client does: the pool's own sign-in
        // and its providers' buttons, or — a client without COGNITO — the buttons alone.
        let offered = settings.supportedIdentityProviders ?? []
        if let provider {
            guard offered.contains(provider) else {
                throw refuse(.unauthorizedClient("The client does not offer the identity provider \(provider)."))
            }
        } else if offered.isEmpty {
            throw refuse(.unauthorizedClient("The client offers no identity provider (SupportedIdentityProviders)."))
        }
        let prompt = query["prompt"]
        if let prompt, !["login", "none"].contains(prompt) {
            throw refuse(.invalidRequest("prompt must be login or none."))
        }
        let challenge = query["code_challenge"]
        if metadataClient != nil {
            guard responseType == "code", challenge != nil else {
                throw refuse(.invalidRequest("A client named by URL is public: it must use the code flow with PKCE (S256)."))
            }
        }
        if let challenge {
            guard query["code_challenge_method"] == "S256" else {
                throw refuse(.invalidRequest("code_challenge_method must be S256."))
            }
            guard (43...128).contains(challenge.count) else { throw refuse(.invalidRequest("The code_challenge is malformed.")) }
        }
        var scopes: [String]
        do {
            scopes = try await store.read { try await OAuthScopes.grant(query["scope"], client: client, forUsers: true, in: $0) }
        } catch let error as OAuthError {
            throw refuse(error)
        }
        if let allowed = metadataClient?.document.scopes {
            scopes = scopes.filter(allowed.contains)
            guard !scopes.isEmpty else { throw refuse(OAuthError("invalid_scope", "The client's metadata document allows none of the scopes.")) }
        }
        return AuthorizationRequest(
            clientId: clientId, metadataURL: metadataClient?.url, redirectURI: redirectURI, responseType: responseType,
            scopes: scopes, state: state, codeChallenge: challenge, nonce: query["nonce"], identityProvider: provider,
            prompt: prompt)
    }
}
