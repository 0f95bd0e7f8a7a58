import CognateProtocol
import CognateSAML
import Foundation

/// A federated sign-in waiting for the provider's answer (a flow: stored, expiring, used once;
/// its token is the `state` sent to the provider).
struct FederatedFlowState: BrowserBoundFlow {
    var request: AuthorizationRequest
    var provider: String
    var nonce: String
    /// The digest of the ``BrowserBinding`` the sign-in started in: only that browser may finish it.
    var binding: String?
}

/// A provider's endpoints, from its details or its OpenID discovery document.
struct ProviderEndpoints: Sendable {
    var authorize: URL
    var token: URL
    var userInfo: URL?
}

extension Federation {
    /// Where providers send the browser back (`<public URL>/oauth2/idpresponse`, to register
    /// as the redirect URI at the provider).
    public var federationCallbackURL: String { configuration.publicBaseURL + "/oauth2/idpresponse" }

    /// Starts a sign-in through `request.identityProvider` in `browser`: the provider's
    /// authorization URL (code flow, with `state` naming this flow and an OIDC `nonce`). The flow
    /// is stored, counted against the caller's address like every stored hosted step.
    public func beginFederatedSignIn(_ request: AuthorizationRequest, provider name: String, browser: BrowserBinding)
        async throws -> String
    {
        let (pool, client) = try await directory.requireClient(request.clientId)
        func refuse(_ description: String) -> AuthorizationRedirectError {
            AuthorizationRedirectError(redirectURI: request.redirectURI, state: request.state, error: .invalidRequest(description))
        }
        guard (client.settings.supportedIdentityProviders ?? []).contains(name),
            let provider = try await store.read({ try await $0.identityProvider(poolId: pool.id, name: name) })
        else { throw refuse("The client does not offer the identity provider \(name).") }
        if provider.type == .saml {
            do {
                return try await saml.begin(request, provider: provider, pool: pool, client: client, browser: browser)
            } catch let error as SAMLError {
                throw refuse("The identity provider \(name) cannot be used: \(error.reason)")
            }
        }
        let endpoints: ProviderEndpoints
        do {
            endpoints = try await self.endpoints(of: provider)
        } catch {
            throw refuse("The identity provider \(name) cannot be reached.")
        }
        let nonce = Base64URL.encode(random.bytes(16))
        let state = try await store.write { transaction in
            try await allowances.consumeRequestAllowance(.hostedFlows, client: client, in: transaction)
            return try await authSessions.openAuthSession(
                .federatedSignIn,
                state: FederatedFlowState(request: request, provider: name, nonce: nonce, binding: browser.digest), user: nil,
                pool: pool, client: client, encoding: .session, lifetime: OAuth.hostedFlowLifetime, in: transaction)
        }
        let query = OAuth.formEncoded([
            ("response_type", "code"), ("client_id", provider.details["client_id"] ?? ""),
            ("redirect_uri", federationCallbackURL), ("scope", provider.details["authorize_scopes"] ?? "openid"),
            ("state", state), ("nonce", nonce),
        ] + ProviderPreset.authorizeParameters(of: provider.type))
        let base = endpoints.authorize.absoluteString
        return base + (base.contains("?") ? "&" : "?") + query
    }

    /// `GET /oauth2/idpresponse`: the provider's answer. The code is exchanged at the provider's
    /// token endpoint (server to server, authenticated with the client secret), the user's
    /// claims read from its userInfo endpoint (or the ID token received in that exchange), and
    /// the pool user found — the one linked to this provider user (AdminLinkProviderForUser), or
    /// the federated user `<provider>_<sub>` (EXTERNAL_PROVIDER), created on first sign-in,
    /// whose mapped attributes are refreshed at every sign-in. Then, as a hosted sign-in ends: a
    /// code (or tokens) for the app. Only the browser that started the sign-in (`browser`) may
    /// finish it: a link carrying someone else's `state` and `code` completes nothing.
    public func completeFederatedSignIn(_ query: [String: String], browser: BrowserBinding?) async throws -> HostedSignInStep {
        var lookup = FlowLookup<FederatedFlowState>.missing
        if let flow = query["state"] {
            lookup = await oauth.consumeFlow(flow, challenge: .federatedSignIn, as: FederatedFlowState.self, browser: browser)
        }
        let (pool, client, state): (PoolRecord, ClientRecord, FederatedFlowState)
        switch lookup {
        case .opened(let openedPool, let openedClient, let openedState): (pool, client, state) = (openedPool, openedClient, openedState)
        case .otherBrowser:
            throw AuthorizationPageError(
                message: "This sign-in was started in another browser. Go back to the app and start again.",
                reason: .otherBrowser)
        case .missing:
            throw AuthorizationPageError(message: "This sign-in has expired. Go back to the app and start again.", reason: .expired)
        }
        func refuse(_ error: String, _ description: String) -> AuthorizationRedirectError {
            AuthorizationRedirectError(
                redirectURI: state.request.redirectURI, state: state.request.state, error: OAuthError(error, description))
        }
        if let error = query["error"] { throw refuse("access_denied", "The identity provider answered \(error).") }
        guard let code = query["code"], let provider = try await store.read({
            try await $0.identityProvider(poolId: pool.id, name: state.provider)
        }) else { throw refuse("invalid_request", "The identity provider's answer is incomplete.") }
        let claims: [String: String]
        do {
            claims = try await providerClaims(code: code, nonce: state.nonce, provider: provider, answer: query)
        } catch let error as ProviderFailure {
            throw refuse("server_error", "Signing in with \(provider.name) failed: \(error.reason)")
        }
        guard let subject = ProviderPreset.subject(in: claims, provider: provider), !subject.isEmpty else {
            throw refuse("server_error", "The identity provider named no user.")
        }
        return try await signIn(
            subject, claims: claims, provider: provider, issuer: nil, request: state.request, binding: state.binding, pool: pool,
            client: client)
    }

    /// The end of every federated sign-in: the provider's user `subject` (with `claims`) signed
    /// in as their pool user (created, linked or updated: `federatedUser`), tokens issued as a
    /// hosted sign-in's, and the app's redirect with its code or tokens. With the browser's
    /// `binding`, a single sign-on session for it; without (an unsolicited SAML response, which
    /// no browser started), none.
    func signIn(_ subject: String, claims: [String: String], provider: IdentityProviderRecord, issuer: String?,
                request: AuthorizationRequest, binding: String?, saml: SAMLSessionReference? = nil, pool: PoolRecord,
                client: ClientRecord) async throws
        -> HostedSignInStep
    {
        func refuse(_ error: String, _ description: String) -> AuthorizationRedirectError {
            AuthorizationRedirectError(redirectURI: request.redirectURI, state: request.state, error: OAuthError(error, description))
        }
        let user: UserRecord
        do {
            user = try await federatedUser(subject, claims: claims, provider: provider, issuer: issuer, pool: pool, client: client)
        } catch let error as CognitoError
            where [.userLambdaValidation, .unexpectedLambda, .invalidLambdaResponse].contains(error.code)
        {
            throw refuse("invalid_request", error.message)   // the PreSignUp function refused or failed
        }
        let result = try await store.transaction { transaction in
            try await completion.completeFirstFactor(user, pool: pool, client: client, askingForMfa: false, in: transaction)
        }
        guard case .tokens(let tokens) = try await tokenFamilies.outcome(
            of: result, source: "TokenGeneration_HostedAuth", clientMetadata: nil, pool: pool, client: client)
        else { throw refuse("access_denied", "The user cannot sign in now.") }
        let location = try await oauth.finishHostedSignIn(request, tokens: tokens, pool: pool, client: client)
        guard let binding else { return .redirect(location) }
        let session = try await tokens.originJti.asyncFlatMap {
            try await RecentSignIn.of(family: $0, pool: pool, binding: binding, in: store)
        }.map { signIn in
            var signIn = signIn
            signIn.saml = saml
            signIn.provider = provider.name
            return try oauth.hostedSessions.seal(signIn)
        }
        return .signedIn(proof: nil, session: session, then: .redirect(location))
    }

    /// The pool user for the provider's user `subject`, created or updated from `claims`.
    ///
    /// Before a provider user's first sign-in creates their pool user, the pool's PreSignUp
    /// function runs with `PreSignUp_ExternalProvider`, as in Cognito: it may refuse the user
    /// (UserLambdaValidationException), or link the provider user to an existing user
    /// (AdminLinkProviderForUser from inside the function, Cognito's documented pattern for
    /// automatic linking) — then this sign-in goes on as that user.
    private func federatedUser(_ subject: String, claims: [String: String], provider: IdentityProviderRecord, issuer: String?,
                               pool: PoolRecord, client: ClientRecord) async throws -> UserRecord {
        let mapped = Self.mappedAttributes(claims, provider: provider, pool: pool)
        let username = "\(provider.name)_\(subject)"
        let known = try await store.read {
            try await $0.providerLink(poolId: pool.id, providerName: provider.name, providerUserId: subject)
        }
        if known == nil {
            _ = try await triggerCalls.runPreSignUp(
                "PreSignUp_ExternalProvider", pool: pool, clientId: client.clientId, username: username,
                attributes: mapped, validationData: nil, clientMetadata: nil)
        }
        let now = time.now
        let identity = ProviderIdentity(
            userId: subject, providerName: provider.name, providerType: provider.type.rawValue, issuer: issuer,
            dateCreated: String(Int(now.timeIntervalSince1970 * 1000)))
        let names = SignInNames(pool: pool.settings)
        do {
            return try await store.write { transaction -> UserRecord in
                if let link = try await transaction.providerLink(poolId: pool.id, providerName: provider.name, providerUserId: subject),
                    let linked = try await transaction.user(poolId: pool.id, sub: link.userSub, forUpdate: true)
                {
                    guard linked.status == .externalProvider else { return linked }   // a native user: its own attributes stay
                    var user = linked
                    user.attributes.merge(mapped) { $1 }
                    user.updatedAt = now
                    try await transaction.updateUser(user)
                    return user
                }
                let sub = self.random.uuid()
                var attributes = mapped
                attributes["identities"] = ProviderIdentity.encode([identity])
                let user = UserRecord(
                    poolId: pool.id, sub: sub, username: username, usernameKey: names.usernameKey(username),
                    status: .externalProvider, enabled: true, createdAt: now, updatedAt: now, password: nil,
                    passwordUpdatedAt: nil, attributes: attributes)
                try await transaction.insertUser(user)
                try await transaction.insertProviderLink(ProviderLinkRecord(
                    poolId: pool.id, providerName: provider.name, providerUserId: subject, userSub: sub, createdAt: now))
                return user
            }
        } catch StoreError.conflict(.username) {  // around the write: the insert may go out with what follows it
            throw CognitoError.invalidParameter("A user named \(username) exists and is not linked to \(provider.name).")
        }
    }

    /// The pool attributes the provider's mapping gives from `claims`; only attributes a
    /// provider may set (`isMappable`), whatever a mapping stored before that rule says.
    static func mappedAttributes(_ claims: [String: String], provider: IdentityProviderRecord, pool: PoolRecord)
        -> [String: String]
    {
        var mapped: [String: String] = [:]
        for (attribute, claim) in provider.attributeMapping where isMappable(attribute, pool: pool) {
            if let value = claims[claim], value.count <= 2048 { mapped[attribute] = value }
        }
        return mapped
    }

    /// Why a provider could not be used.
    struct ProviderFailure: Error {
        var reason: String
    }

    /// The claims of the provider's user: the code exchanged (client secret in the form), then
    /// the userInfo endpoint with the access token, else the ID token of that exchange (received
    /// straight from the provider over its TLS connection, as OpenID Connect allows; its nonce
    /// must be ours). Values are strings. Social providers speak their own shapes (`socialClaims`).
    private func providerClaims(code: String, nonce: String, provider: IdentityProviderRecord, answer: [String: String])
        async throws -> [String: String]
    {
        let endpoints = try await self.endpoints(of: provider)
        if ProviderPreset.isSocial(provider.type) {
            return try await socialClaims(code: code, nonce: nonce, provider: provider, endpoints: endpoints, answer: answer)
        }
        let form = OAuth.formEncoded([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", federationCallbackURL),
            ("client_id", provider.details["client_id"] ?? ""), ("client_secret", provider.details["client_secret"] ?? ""),
        ])
        let exchanged = try await upstreamJSON("POST", endpoints.token, headers: [
            "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json",
        ], body: Data(form.utf8))
        var claims: [String: String] = [:]
        if let idToken = exchanged["id_token"]?.stringValue, let payload = JWT.parts(of: idToken)?.payload,
            case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: payload)
        {
            guard fields["nonce"]?.stringValue == nonce else { throw ProviderFailure(reason: "the ID token's nonce is not ours") }
            for (name, value) in fields { claims[name] = value.claimString }
        }
        if let userInfo = endpoints.userInfo, let access = exchanged["access_token"]?.stringValue {
            let info = try await upstreamJSON("GET", userInfo, headers: ["Authorization": "Bearer \(access)"], body: nil)
            for (name, value) in info { claims[name] = value.claimString }
        }
        return claims
    }

    /// The provider's endpoints: from its details, or from `<oidc_issuer>/.well-known/openid-configuration`;
    /// each on the base `identity_provider_urls` gives its host, if any (`ProviderURLOverrides`).
    func endpoints(of provider: IdentityProviderRecord) async throws -> ProviderEndpoints {
        let details = provider.details
        let overrides = ProviderURLOverrides(bases: configuration.identityPools.providerURLs)
        var authorize = details["authorize_url"].flatMap(URL.init(string:))
        var token = details["token_url"].flatMap(URL.init(string:))
        var userInfo = details["attributes_url"].flatMap(URL.init(string:))
        let issuer = details["oidc_issuer"] ?? (provider.type == .google ? "https://accounts.google.com" : nil)
        if authorize == nil || token == nil, let issuer, let discovery = URL(string: issuer + "/.well-known/openid-configuration") {
            let document = try await discoveryDocument(of: provider, at: overrides.resolve(discovery))
            authorize = authorize ?? document["authorization_endpoint"]?.stringValue.flatMap(URL.init(string:))
            token = token ?? document["token_endpoint"]?.stringValue.flatMap(URL.init(string:))
            userInfo = userInfo ?? document["userinfo_endpoint"]?.stringValue.flatMap(URL.init(string:))
        }
        guard let authorize, let token else { throw ProviderFailure(reason: "its endpoints are unknown") }
        return ProviderEndpoints(
            authorize: overrides.resolve(authorize), token: overrides.resolve(token), userInfo: userInfo.map { overrides.resolve($0) })
    }

    /// The provider's discovery document, fetched at most once per provider while its
    /// `Cache-Control` allows (`DiscoveryDocuments`).
    private func discoveryDocument(of provider: IdentityProviderRecord, at url: URL) async throws -> [String: JSONValue] {
        try await discovery.document(
            DiscoveryDocuments.Key(poolId: provider.poolId, provider: provider.name),
            version: "\(provider.updatedAt.timeIntervalSince1970) \(url.absoluteString)", now: time.now
        ) {
            let (document, headers) = try await self.upstreamCall("GET", url, headers: ["Accept": "application/json"], body: nil)
            return (document, DiscoveryDocuments.lifetime(cacheControl: headers["cache-control"]))
        }
    }

    private func upstreamJSON(_ method: String, _ url: URL, headers: [String: String], body: Data?) async throws
        -> [String: JSONValue]
    {
        try await upstreamCall(method, url, headers: headers, body: body).fields
    }

    /// One call to a provider: the JSON object of its 200 answer and the answer's headers. A
    /// redirect is a failure (never followed: it would carry the client secret or the code
    /// elsewhere), and logged.
    func upstreamCall(_ method: String, _ url: URL, headers: [String: String], body: Data?) async throws
        -> (fields: [String: JSONValue], headers: [String: String])
    {
        let answer: UpstreamAnswer
        do {
            answer = try await upstream.send(method: method, url: url, headers: headers, body: body)
        } catch {
            throw ProviderFailure(reason: "\(url.host ?? "it") did not answer")
        }
        if let redirect = OutboundHTTP.redirectRefusal(answer.status) {
            // Without the query: Facebook's token request carries the client secret and the code there.
            log("federation: \(method) \(url.scheme ?? "")://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")\(url.path) \(redirect)")
            throw ProviderFailure(reason: "\(url.path) \(redirect)")
        }
        guard answer.status == 200, case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: answer.body) else {
            throw ProviderFailure(reason: "\(url.path) answered \(answer.status)")
        }
        return (fields, answer.headers)
    }
}

/// One entry of a user's `identities` attribute (and ID token claim), as Cognito writes it.
struct ProviderIdentity: Codable, Sendable {
    var userId: String
    var providerName: String
    var providerType: String
    var issuer: String? = nil
    var primary: String = "true"
    var dateCreated: String

    static func encode(_ identities: [ProviderIdentity]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(identities)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    static func decode(_ text: String?) -> [ProviderIdentity] {
        text.flatMap { try? JSONDecoder().decode([ProviderIdentity].self, from: Data($0.utf8)) } ?? []
    }
}

extension JSONValue {
    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// A claim as an attribute value: strings as they are, Booleans `true`/`false`, whole
    /// numbers without a fraction; nothing for objects, arrays and null.
    var claimString: String? {
        switch self {
        case .string(let value): return value
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        default: return nil
        }
    }
}
