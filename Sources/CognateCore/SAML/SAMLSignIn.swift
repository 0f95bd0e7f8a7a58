import CognateProtocol
import CognateSAML
import Foundation

/// A SAML sign-in waiting for the provider's response: the AuthnRequest's ID it must answer,
/// the authorization it serves, the browser it started in.
struct SAMLRequestState: Codable, Sendable {
    var request: AuthorizationRequest
    var provider: String
    var requestID: String
    var binding: String?
}

/// A verified SAML response waiting for the browser that asked for it (see `SAMLSignIn`).
struct SAMLAnsweredState: BrowserBoundFlow {
    var request: AuthorizationRequest
    var provider: String
    var subject: String
    var issuer: String
    var claims: [String: String]
    var session: SAMLSessionReference
    var binding: String?
}

/// Sign-in through a SAML 2.0 identity provider, Cognate as its service provider (entity ID
/// `urn:amazon:cognito:sp:<pool id>`, assertion consumer `<public URL>/saml2/idpresponse`,
/// single logout `<public URL>/saml2/logout`, as Cognito's).
///
/// SP-initiated: `/oauth2/authorize` with the provider sends the browser to the provider's
/// HTTP-Redirect SingleSignOnService with an AuthnRequest (signed with the pool's signing key
/// when `RequestSigningAlgorithm` is `rsa-sha256`) and a RelayState naming a stored flow. The
/// provider's POST to the assertion consumer carries no SameSite=Lax cookie (it comes from
/// another site): the response is verified there (`SAMLResponseVerifier`) against that flow's
/// request — the flow is used up — and kept as a second flow, which the browser's own same-site
/// GET then completes only if it is the browser that began the sign-in. IdP-initiated (with
/// `IDPInit`): the POST's RelayState holds the authorize parameters; the unsolicited assertion
/// must be fresh and is taken once; no browser can be checked, so no single sign-on session
/// comes of it.
struct SAMLSignIn: Sendable {
    let federation: Federation

    /// Cognito's window for a response to an AuthnRequest.
    static let requestLifetime: TimeInterval = 300

    static func entityID(of poolId: String) -> String { "urn:amazon:cognito:sp:\(poolId)" }
    var assertionConsumer: String { federation.configuration.publicBaseURL + "/saml2/idpresponse" }
    var logoutEndpoint: String { federation.configuration.publicBaseURL + "/saml2/logout" }

    /// The provider's SingleSignOnService address with the AuthnRequest, for `browser`.
    func begin(_ request: AuthorizationRequest, provider: IdentityProviderRecord, pool: PoolRecord, client: ClientRecord,
               browser: BrowserBinding) async throws -> String {
        let metadata = try await currentMetadata(of: provider)
        guard let destination = metadata.singleSignOnRedirect else { throw SAMLError("The provider has no redirect SingleSignOnService.") }
        let requestID = "_" + federation.random.bytes(16).map { String(format: "%02x", $0) }.joined()
        let relayState = try await federation.store.write { transaction in
            try await federation.allowances.consumeRequestAllowance(.hostedFlows, client: client, in: transaction)
            return try await federation.authSessions.openAuthSession(
                .samlRequest, state: SAMLRequestState(request: request, provider: provider.name, requestID: requestID, binding: browser.digest),
                user: nil, pool: pool, client: client, encoding: .session, lifetime: Self.requestLifetime, in: transaction)
        }
        let message = ServiceProviderMessages.authnRequest(
            id: requestID, entityID: Self.entityID(of: pool.id), destination: destination, assertionConsumer: assertionConsumer,
            now: federation.time.now)
        let signer = provider.details[SAMLProviderDetails.requestSigningAlgorithm] == "rsa-sha256"
            ? try await poolSigner(pool) : nil
        return try RedirectBinding.url(
            destination: destination, parameter: "SAMLRequest", message: message, relayState: relayState, signer: signer)
    }

    /// Signs redirect-binding requests with the pool's signing key (RSA-SHA256), the key of
    /// GetSigningCertificate's certificate.
    func poolSigner(_ pool: PoolRecord) async throws -> RequestSigner {
        let key = try await federation.keys.signingKey(for: pool.id, now: federation.time.now)
        return RequestSigner(algorithm: RequestSigner.rsaSHA256) { Data(try key.signer.sign(Array($0))) }
    }

    /// `POST /saml2/idpresponse` (`SAMLResponse`, `RelayState`).
    func receive(_ form: [String: String]) async throws -> SAMLReceipt {
        guard let response = form["SAMLResponse"], !response.isEmpty else {
            throw AuthorizationPageError(message: "The identity provider's answer is missing its SAMLResponse.")
        }
        let relayState = form["RelayState"] ?? ""
        if let opened = try await openRequest(relayState) {
            return try await receiveSolicited(response, opened)
        }
        let parameters = OAuth.formDecoded(relayState)
        guard parameters["client_id"] != nil else {
            throw AuthorizationPageError(
                message: "This sign-in has expired or was not started here. Go back to the app and start again.", reason: .expired)
        }
        return .signedIn(try await receiveUnsolicited(response, authorize: parameters))
    }

    /// Takes the stored request a RelayState names (used up: one response per request); nil
    /// when it names none.
    private func openRequest(_ relayState: String) async throws -> (PoolRecord, ClientRecord, SAMLRequestState)? {
        guard !relayState.isEmpty, relayState.count <= 512,
            let record = try await federation.store.read({ try await $0.authSession(tokenHash: AuthSessions.hash(relayState)) }),
            let (pool, client) = try? await federation.directory.requireClient(record.clientId)
        else { return nil }
        return try? await federation.store.write { transaction in
            let pending = try await federation.authSessions.readAuthSession(
                relayState, challenge: .samlRequest, as: SAMLRequestState.self, pool: pool, client: client, in: transaction)
            try await federation.authSessions.consumeAuthSession(pending.record, in: transaction)
            return (pool, client, pending.state)
        }
    }

    private func receiveSolicited(_ response: String, _ opened: (PoolRecord, ClientRecord, SAMLRequestState)) async throws
        -> SAMLReceipt
    {
        let (pool, client, state) = opened
        let provider = try await requireProvider(state.provider, pool: pool, request: state.request)
        let assertion = try await verify(response, provider: provider, pool: pool, inResponseTo: state.requestID, request: state.request)
        let answered = SAMLAnsweredState(
            request: state.request, provider: provider.name, subject: assertion.nameID, issuer: assertion.issuer,
            claims: Self.claims(of: assertion), session: SAMLSessionReference(assertion, provider: provider.name, poolId: pool.id),
            binding: state.binding)
        let token = try await federation.store.write { transaction in
            try await federation.authSessions.openAuthSession(
                .samlAnswer, state: answered, user: nil, pool: pool, client: client, encoding: .session,
                lifetime: OAuth.hostedFlowLifetime, in: transaction)
        }
        return .continueInBrowser(token)
    }

    /// `GET /saml2/idpresponse?state=`: the verified response, in the browser that asked for it.
    func complete(_ flow: String, browser: BrowserBinding?) async throws -> HostedSignInStep {
        let lookup = await federation.oauth.consumeFlow(flow, challenge: .samlAnswer, as: SAMLAnsweredState.self, browser: browser)
        switch lookup {
        case .opened(let pool, let client, let state):
            let provider = try await requireProvider(state.provider, pool: pool, request: state.request)
            let logout = SAMLProviderDetails.isTrue(provider.details, SAMLProviderDetails.signOut) ? state.session : nil
            return try await federation.signIn(
                state.subject, claims: state.claims, provider: provider, issuer: state.issuer, request: state.request,
                binding: state.binding, saml: logout, pool: pool, client: client)
        case .otherBrowser:
            throw AuthorizationPageError(
                message: "This sign-in was started in another browser. Go back to the app and start again.", reason: .otherBrowser)
        case .missing:
            throw AuthorizationPageError(message: "This sign-in has expired. Go back to the app and start again.", reason: .expired)
        }
    }

    /// An IdP-initiated response: the provider must accept them (`IDPInit`), the client must
    /// offer it and no provider but SAML ones (not even the pool's own sign-in, as Cognito
    /// requires), the assertion must be unsolicited, at most six minutes old, and new (its ID is
    /// remembered until it expires).
    private func receiveUnsolicited(_ response: String, authorize parameters: [String: String]) async throws -> HostedSignInStep {
        let request = try await federation.oauth.authorizationRequest(parameters)
        let (pool, client) = try await federation.directory.requireClient(request.clientId)
        guard let name = request.identityProvider else {
            throw AuthorizationRedirectError(
                redirectURI: request.redirectURI, state: request.state,
                error: .invalidRequest("The RelayState names no identity_provider or idp_identifier."))
        }
        let provider = try await requireProvider(name, pool: pool, request: request)
        func refuse(_ description: String) -> AuthorizationRedirectError {
            AuthorizationRedirectError(redirectURI: request.redirectURI, state: request.state, error: .invalidRequest(description))
        }
        guard SAMLProviderDetails.isTrue(provider.details, SAMLProviderDetails.idpInitiated) else {
            throw refuse("The identity provider \(name) does not accept IdP-initiated sign-in.")
        }
        let offered = try await ClientIdentityProviders(store: federation.store).offered(by: client)
        guard !(client.settings.supportedIdentityProviders ?? []).contains("COGNITO"), offered.allSatisfy({ $0.type == .saml }) else {
            throw refuse("An app client that takes IdP-initiated SAML sign-in may offer SAML providers only.")
        }
        // Counted like every stored hosted step, before any signature is checked.
        try await federation.store.write { transaction in
            try await federation.allowances.consumeRequestAllowance(.hostedFlows, client: client, in: transaction)
        }
        let assertion = try await verify(response, provider: provider, pool: pool, inResponseTo: nil, request: request)
        do {
            try await federation.store.write { transaction in
                _ = try await federation.authSessions.openAuthSession(
                    .samlAssertion, state: ["assertion": assertion.id], user: nil, pool: pool, client: client, encoding: .session,
                    token: "saml-assertion \(provider.name) \(assertion.issuer) \(assertion.id)",
                    lifetime: max(60, assertion.expires.timeIntervalSince(federation.time.now) + 120), in: transaction)
            }
        } catch StoreError.conflict(.authSession) {
            throw refuse("This SAML assertion was used already.")
        }
        return try await federation.signIn(
            assertion.nameID, claims: Self.claims(of: assertion), provider: provider, issuer: assertion.issuer, request: request,
            binding: nil, pool: pool, client: client)
    }

    private func requireProvider(_ name: String, pool: PoolRecord, request: AuthorizationRequest) async throws
        -> IdentityProviderRecord
    {
        guard let provider = try await federation.store.read({ try await $0.identityProvider(poolId: pool.id, name: name) }),
            provider.type == .saml
        else {
            throw AuthorizationRedirectError(
                redirectURI: request.redirectURI, state: request.state, error: .invalidRequest("No SAML identity provider \(name)."))
        }
        return provider
    }

    /// Cognito's longest wait before a `MetadataURL` is read again.
    static let metadataLifetime: TimeInterval = 6 * 60 * 60

    /// The provider's metadata as of now: the stored document, or — for a `MetadataURL` stored
    /// more than six hours ago — the URL's current document, kept per node for six hours
    /// (``DiscoveryDocuments``; a change of the provider drops it). A document that cannot be
    /// fetched or read leaves the stored one in use for a minute, and is logged.
    func currentMetadata(of provider: IdentityProviderRecord) async throws -> IdentityProviderMetadata {
        let now = federation.time.now
        let stored = try SAMLProviderDetails.metadata(of: provider, now: now)
        guard let url = provider.details[SAMLProviderDetails.metadataURL].flatMap(URL.init(string:)),
            now.timeIntervalSince(provider.updatedAt) > Self.metadataLifetime
        else { return stored }
        let federation = self.federation
        let kept = try? await federation.discovery.document(
            DiscoveryDocuments.Key(poolId: provider.poolId, provider: provider.name),
            version: "saml \(provider.updatedAt.timeIntervalSince1970) \(url.absoluteString)", now: now
        ) {
            do {
                let document = try await federation.fetchMetadata(url)
                _ = try IdentityProviderMetadata.parse(document, now: now)
                return (["document": .string(document)], Self.metadataLifetime)
            } catch {
                federation.log("saml: \(provider.name): its MetadataURL could not be read again (\(error)); the stored metadata stays in use")
                return ([:], DiscoveryDocuments.shortest)
            }
        }
        guard let document = kept?["document"]?.stringValue,
            let current = try? IdentityProviderMetadata.parse(document, now: now)
        else { return stored }
        return current
    }

    private func verify(_ response: String, provider: IdentityProviderRecord, pool: PoolRecord, inResponseTo: String?,
                        request: AuthorizationRequest) async throws -> VerifiedAssertion {
        do {
            let metadata = try await currentMetadata(of: provider)
            return try SAMLResponseVerifier.verify(base64: response, expecting: ResponseExpectations(
                identityProvider: metadata, entityID: Self.entityID(of: pool.id), assertionConsumer: assertionConsumer,
                inResponseTo: inResponseTo, decryptionKey: provider.details[SAMLProviderDetails.encryptionKey],
                requireEncryption: SAMLProviderDetails.isTrue(provider.details, SAMLProviderDetails.encryptedResponses),
                now: federation.time.now))
        } catch let error as SAMLError {
            // The reason goes to the server's log only: the app (and whoever sent the response)
            // gets one answer whatever failed, so that no answer tells them about an encrypted
            // assertion's plaintext.
            federation.log("saml: \(provider.name): response refused: \(Self.loggable(error.reason))")
            throw AuthorizationRedirectError(
                redirectURI: request.redirectURI, state: request.state,
                error: OAuthError("invalid_request", "Signing in with \(provider.name) failed: its SAML response was refused."))
        }
    }

    /// A reason fit for one log line: no control characters, at most 300 characters.
    static func loggable(_ reason: String) -> String {
        String(String.UnicodeScalarView(reason.unicodeScalars.map {
            CharacterSet.controlCharacters.contains($0) ? "?" : $0
        }).prefix(300))
    }

    /// The assertion's attributes as claims for the mapping: one value as it is; several as
    /// `[a, b]`, each URL-form-encoded where it has other than letters, digits and `.-*_` (as
    /// Cognito does with multi-valued attributes).
    static func claims(of assertion: VerifiedAssertion) -> [String: String] {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-*_")
        var claims: [String: String] = [:]
        for (name, values) in assertion.attributes {
            if values.count == 1 {
                claims[name] = values[0]
            } else if !values.isEmpty {
                claims[name] = "[" + values.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }
                    .joined(separator: ", ") + "]"
            }
        }
        return claims
    }
}

/// What the assertion consumer does with a POSTed response.
public enum SAMLReceipt: Sendable {
    /// Verified: the browser finishes the sign-in with a same-site GET naming this flow.
    case continueInBrowser(String)
    /// An unsolicited response signed in at once (IdP-initiated).
    case signedIn(HostedSignInStep)
}

/// Who signed in through a SAML provider, as its single logout needs them: kept (sealed) in the
/// browser with the hosted session when the provider has `IDPSignout`.
public struct SAMLSessionReference: Codable, Sendable, Equatable {
    var poolId: String
    var provider: String
    var nameID: String
    var nameIDFormat: String?
    var sessionIndex: String?

    init(_ assertion: VerifiedAssertion, provider: String, poolId: String) {
        self.poolId = poolId
        self.provider = provider
        nameID = assertion.nameID
        nameIDFormat = assertion.nameIDFormat
        sessionIndex = assertion.sessionIndex
    }
}

extension Federation {
    var saml: SAMLSignIn { SAMLSignIn(federation: self) }

    /// `POST /saml2/idpresponse`: see ``SAMLSignIn``.
    public func receiveSAMLResponse(_ form: [String: String]) async throws -> SAMLReceipt { try await saml.receive(form) }

    /// `GET /saml2/idpresponse?state=`: see ``SAMLSignIn``.
    public func completeSAMLSignIn(_ flow: String, browser: BrowserBinding?) async throws -> HostedSignInStep {
        try await saml.complete(flow, browser: browser)
    }
}
