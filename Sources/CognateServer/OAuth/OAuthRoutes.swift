import CognateCore
import CognateProtocol
import Foundation
import HTTPTypes
import Hummingbird

/// The OAuth 2.0 / OpenID Connect endpoints and the hosted sign-in, at the server's public URL
/// for every pool (docs/oauth.md): `/oauth2/authorize` (sends the browser to `/login`),
/// `/login`, `/signup` and `/forgotPassword` (the hosted pages; every form posts to `/login`),
/// `/passkeys/add` (a signed-in user adds a passkey; its forms post to it), `/oauth2/token`,
/// `/oauth2/userInfo`, `/oauth2/revoke`, `/logout`. The app client (`client_id`) names the
/// pool; a Host that is a pool's domain (`<domain>.…`) must match the client's pool.
enum OAuthRoutes {
    static let maxFormBytes = 16 * 1024

    static func add(to router: Router<CognateRequestContext>, service: IdentityService, secureCookies: Bool,
                    placement: WorkPlacement) {
        router.get("/oauth2/authorize") { request, _ -> Response in
            let query = queryDictionary(request)
            do {
                let validated = try await service.oauth.authorizationRequest(query)
                try await checkDomain(request, clientId: validated.clientId, service: service)
                return HostedPages.redirect("/login?" + (request.uri.query ?? ""))
            } catch {
                return await authorizeFailure(error, request, service: service)
            }
        }
        router.get("/login") { request, _ -> Response in
            do {
                let validated = try await service.oauth.authorizationRequest(queryDictionary(request))
                try await checkDomain(request, clientId: validated.clientId, service: service)
                let (browser, isNew) = HostedPages.browser(of: request, secure: secureCookies)
                if let provider = validated.identityProvider {
                    var response = HostedPages.redirect(
                        try await service.federation.beginFederatedSignIn(validated, provider: provider, browser: browser))
                    if isNew { response.headers[.setCookie] = HostedPages.browserCookie(browser, secure: secureCookies) }
                    return response
                }
                let session = request.cookies[HostedPages.sessionCookieName(secure: secureCookies)]?.value
                return await respond(
                    with: try await service.oauth.beginHostedSignIn(validated, browser: browser, session: session),
                    browser: browser, service: service, secureCookies: secureCookies)
            } catch {
                return await authorizeFailure(error, request, service: service)
            }
        }
        // The sign-in page's email field (``SignInOffer/emailDiscovery``): on to the provider
        // whose IdpIdentifiers has the address's domain, or back to the page saying there is none.
        router.get("/login/domain") { request, _ -> Response in
            do {
                var query = queryDictionary(request)
                let email = query.removeValue(forKey: "email") ?? ""
                query["identity_provider"] = nil
                query["idp_identifier"] = nil
                let validated = try await service.oauth.authorizationRequest(query)
                try await checkDomain(request, clientId: validated.clientId, service: service)
                if let provider = await service.oauth.provider(forEmail: email, clientId: validated.clientId) {
                    return HostedPages.redirect("/login?" + validated.query + "&" + OAuth.formEncoded([("identity_provider", provider)]))
                }
                let browser = HostedPages.browser(of: request, secure: secureCookies).binding
                var step = try await service.oauth.beginHostedSignIn(validated, browser: browser)
                if case .page(.signIn(let username, let name, _, let notice, let canSignUp), let flow, let pageRequest) = step {
                    let domain = email.split(separator: "@").last.map(String.init) ?? ""
                    let looksLikeOne = !domain.isEmpty && domain.count <= 40
                        && domain.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
                    let message = looksLikeOne
                        ? "No sign-in is set up for \(domain)." : "No sign-in is set up for that email address's domain."
                    step = .page(
                        .signIn(username: username, name: name, error: message, notice: notice, canSignUp: canSignUp),
                        flow: flow, request: pageRequest)
                }
                return await respond(with: step, browser: browser, service: service, secureCookies: secureCookies)
            } catch {
                return await authorizeFailure(error, request, service: service)
            }
        }
        let starts: [(String, @Sendable (AuthorizationRequest, BrowserBinding) async throws -> HostedSignInStep)] = [
            ("/signup", service.oauth.beginHostedSignUp), ("/forgotPassword", service.oauth.beginHostedPasswordReset),
        ]
        for (path, begin) in starts {
            router.get(RouterPath(path)) { request, _ -> Response in
                do {
                    let validated = try await service.oauth.authorizationRequest(queryDictionary(request))
                    try await checkDomain(request, clientId: validated.clientId, service: service)
                    let browser = HostedPages.browser(of: request, secure: secureCookies).binding
                    return await respond(
                        with: try await begin(validated, browser), browser: browser, service: service,
                        secureCookies: secureCookies)
                } catch {
                    return await authorizeFailure(error, request, service: service)
                }
            }
        }
        router.get("/passkeys/add") { request, _ -> Response in
            do {
                let validated = try await service.oauth.passkeyAdditionRequest(queryDictionary(request))
                try await checkDomain(request, clientId: validated.clientId, service: service)
                let browser = HostedPages.browser(of: request, secure: secureCookies).binding
                let proof = request.cookies[HostedPages.signedInCookieName]?.value
                let step = try await placement.run {
                    try await service.oauth.beginPasskeyAddition(validated, browser: browser, proof: proof)
                }
                return await respond(with: step, browser: browser, service: service, secureCookies: secureCookies)
            } catch {
                return await authorizeFailure(error, request, service: service)
            }
        }
        // Every hosted form posts its flow to the page it came from; the flow says what follows.
        for path in ["/login", "/passkeys/add"] {
            router.post(RouterPath(path)) { request, _ -> Response in
                guard let form = try? await formBody(request), let flow = form["flow"], !flow.isEmpty,
                    let browser = HostedPages.knownBrowser(of: request, secure: secureCookies)
                else {
                    return await authorizeFailure(
                        AuthorizationPageError(message: "This form has expired or was not sent from this sign-in page.", reason: .expired),
                        request, service: service, status: .forbidden)
                }
                do {
                    let step = try await placement.run {
                        try await service.oauth.continueHostedSignIn(flow: flow, form: form, browser: browser)
                    }
                    return await respond(with: step, browser: browser, service: service, secureCookies: secureCookies)
                } catch {
                    return await authorizeFailure(error, request, service: service)
                }
            }
        }
        router.post("/oauth2/token") { request, _ -> Response in
            do {
                guard let form = try? await formBody(request) else { throw OAuthError("invalid_request", "The body must be a form.") }
                let tokenRequest = OAuthRequests.tokenRequest(form, basic: basicCredentials(request))
                return try json(.ok, try await placement.run { try await service.oauth.tokenEndpoint(tokenRequest) })
            } catch {
                return oauthFailure(error)
            }
        }
        router.post("/oauth2/revoke") { request, _ -> Response in
            do {
                guard let form = try? await formBody(request) else { throw OAuthError("invalid_request", "The body must be a form.") }
                try await service.oauth.revokeEndpoint(OAuthRequests.revocationRequest(form, basic: basicCredentials(request)))
                return Response(status: .ok, headers: [.cacheControl: "no-store"])
            } catch {
                return oauthFailure(error)
            }
        }
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/oauth2/userInfo", method: method) { request, _ -> Response in
                do {
                    guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
                        throw OAuthError("invalid_token", "A Bearer access token is required.")
                    }
                    return try json(.ok, try await service.oauth.userInfo(accessToken: String(header.dropFirst("bearer ".count))))
                } catch {
                    return oauthFailure(error)
                }
            }
        }
        // Cognate's extension: how an app client's users sign in (its providers, as its hosted
        // sign-in page shows them), for apps that draw their own buttons. Public, as the page is.
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/oauth2/identityProviders", method: method) { request, _ -> Response in
                do {
                    let fields = method == .post ? ((try? await formBody(request)) ?? [:]) : queryDictionary(request)
                    let clientId = fields["client_id"] ?? ""
                    if !clientId.isEmpty { try await checkDomain(request, clientId: clientId, service: service) }
                    return try json(.ok, try await service.oauth.signInOptions(clientId: clientId))
                } catch {
                    return oauthFailure(error)
                }
            }
        }
        for path in ["/oauth2/token", "/oauth2/revoke"] {
            router.get(RouterPath(path)) { _, _ -> Response in
                var response = oauthFailure(OAuthError("invalid_request", "Use POST."), status: .methodNotAllowed)
                response.headers[.allow] = "POST"
                return response
            }
        }
        router.get("/oauth2/idpresponse") { request, _ -> Response in
            do {
                let query = queryDictionary(request)
                guard let browser = HostedPages.knownBrowser(of: request, secure: secureCookies) else {
                    throw AuthorizationPageError(
                        message: "This sign-in was started in another browser. Go back to the app and start again.",
                        reason: .otherBrowser)
                }
                let step = try await placement.run { try await service.federation.completeFederatedSignIn(query, browser: browser) }
                return await respond(with: step, browser: browser, service: service, secureCookies: secureCookies)
            } catch {
                return await authorizeFailure(error, request, service: service)
            }
        }
        // Sign in with Apple answers with a form post (response_mode=form_post) from
        // appleid.apple.com: a cross-site POST, which carries no SameSite=Lax cookie, so the
        // browser is unknown here. Nothing is done with the answer but to send it on as a
        // same-site top-level GET (303) to the route above, which the browser makes with its
        // cookie and which runs every check; the cookie stays Lax (docs/security.md).
        router.post("/oauth2/idpresponse") { request, _ -> Response in
            guard let form = try? await formBody(request) else {
                return await authorizeFailure(
                    AuthorizationPageError(message: "This sign-in has expired. Go back to the app and start again.", reason: .expired),
                    request, service: service)
            }
            let relayed = ["state", "code", "error", "error_description", "user"].compactMap { name in
                form[name].map { (name, $0) }
            }
            var response = HostedPages.redirect("/oauth2/idpresponse?" + OAuth.formEncoded(relayed))
            response.status = .seeOther
            return response
        }
        router.get("/ui/:pool/:client/logo") { _, context -> Response in
            guard let pool = context.parameters.get("pool"), let client = context.parameters.get("client"),
                let (image, type) = try? await service.managedLogin.logo(poolId: pool, clientId: client)
            else { return HostedPages.error(.notFound, "No such logo.") }
            return Response(
                status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=86400"],
                body: .init(byteBuffer: ByteBuffer(bytes: image)))
        }
        router.get("/logout") { request, _ -> Response in
            let query = queryDictionary(request)
            do {
                var destination = try await service.oauth.logoutRedirect(clientId: query["client_id"], logoutURI: query["logout_uri"])
                // A session from a SAML provider with single logout: through the provider first.
                if let browser = HostedPages.knownBrowser(of: request, secure: secureCookies),
                    let saml = service.oauth.samlSession(
                        request.cookies[HostedPages.sessionCookieName(secure: secureCookies)]?.value, browser: browser),
                    let clientId = query["client_id"],
                    let providerLogout = try await service.federation.beginSAMLLogout(saml, destination: destination, clientId: clientId)
                {
                    destination = providerLogout
                }
                var response = HostedPages.redirect(destination)
                // No more proof of a sign-in, and no more single sign-on session.
                response.headers[.setCookie] = HostedPages.signedInCookie(nil, secure: secureCookies)
                response.headers.append(HTTPField(name: .setCookie, value: HostedPages.sessionCookie(nil, secure: secureCookies)))
                return response
            } catch {
                return await authorizeFailure(error, request, service: service)
            }
        }
    }

    static func respond(with step: HostedSignInStep, browser: BrowserBinding, service: IdentityService,
                                secureCookies: Bool) async -> Response {
        switch step {
        case .signedIn(let proof, let session, let then):
            var response = await respond(with: then, browser: browser, service: service, secureCookies: secureCookies)
            if let proof {
                response.headers.append(HTTPField(name: .setCookie, value: HostedPages.signedInCookie(proof, secure: secureCookies)))
            }
            if let session {
                response.headers.append(HTTPField(name: .setCookie, value: HostedPages.sessionCookie(session, secure: secureCookies)))
            }
            return response
        case .page(let page, let flow, let request):
            let style = (try? await service.managedLogin.hostedPageStyle(clientId: request.clientId)) ?? HostedPageStyle()
            var terms: [(name: String, url: String)] = []
            if case .signUp = page { terms = (try? await service.managedLogin.termsLinks(clientId: request.clientId)) ?? [] }
            var offer = SignInOffer()
            switch page {
            case .signIn, .signInName: offer = await service.oauth.signInOffer(clientId: request.clientId)
            default: break
            }
            var response = HostedPages.page(page, flow: flow, request: request, style: style, terms: terms, offer: offer)
            response.headers[.setCookie] = HostedPages.browserCookie(browser, secure: secureCookies)
            return response
        case .redirect(let location): return HostedPages.redirect(location)
        }
    }

    /// A Host naming a pool's domain (its first label) serves that pool's clients only.
    private static func checkDomain(_ request: Request, clientId: String, service: IdentityService) async throws {
        guard let host = request.head.authority,
            let label = host.split(separator: ".").first.map(String.init), host.contains("."),
            let poolId = try await service.managedLogin.poolOfDomain(label)
        else { return }
        guard try await service.managedLogin.clientBelongs(clientId, toPool: poolId) else {
            throw AuthorizationPageError(message: "This app client does not belong to the user pool of \(host).")
        }
    }

    /// The answer to a failed page: back to the app with `error` when the request may be
    /// trusted with a redirect, else an error page. The page leads back to the sign-in, in the
    /// client's look, when the request is known: a form's (its query names it, checked again
    /// here) or a refused step's, and any request refused for going too fast.
    static func authorizeFailure(_ error: any Error, _ request: Request, service: IdentityService,
                                         status: HTTPResponse.Status? = nil) async -> Response {
        let answer: (status: HTTPResponse.Status, message: String, reason: AuthorizationPageError.Reason?)
        var known: AuthorizationRequest?
        switch error {
        case let page as AuthorizationPageError:
            answer = (status ?? .badRequest, page.message, page.reason)
            known = page.request
        case let refused as CognitoError where refused.code == .tooManyRequests:
            answer = (.tooManyRequests, refused.message, nil)
        case StoreError.unstorableText:
            answer = (.badRequest, StoreError.unstorableTextMessage, nil)
        case let refused as AuthorizationRedirectError:
            var pairs = [("error", refused.error.error), ("error_description", refused.error.description)]
            if let state = refused.state { pairs.append(("state", state)) }
            let separator = refused.redirectURI.contains("?") ? "&" : "?"
            return HostedPages.redirect(refused.redirectURI + separator + OAuth.formEncoded(pairs))
        default:
            answer = (.internalServerError, "The sign-in failed; try again.", nil)
        }
        if known == nil, request.method == .post || answer.status == .tooManyRequests {
            known = request.uri.path == "/passkeys/add"
                ? try? await service.oauth.passkeyAdditionRequest(queryDictionary(request))
                : try? await service.oauth.authorizationRequest(queryDictionary(request))
        }
        var style = HostedPageStyle()
        if let known, let own = try? await service.managedLogin.hostedPageStyle(clientId: known.clientId) { style = own }
        return HostedPages.error(answer.status, answer.message, reason: answer.reason, signIn: known, style: style)
    }

    private static func oauthFailure(_ error: any Error, status chosen: HTTPResponse.Status? = nil) -> Response {
        let oauth: OAuthError
        switch error {
        case let known as OAuthError: oauth = known
        case StoreError.unstorableText: oauth = OAuthError("invalid_request", StoreError.unstorableTextMessage)
        default: oauth = OAuthError("server_error", "The request could not be completed.")
        }
        let status = chosen ?? OAuthRequests.status(of: oauth)
        var response = (try? json(status, ["error": oauth.error, "error_description": oauth.description]))
            ?? Response(status: .internalServerError)
        if status == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer error=\"\(oauth.error)\"" }
        return response
    }

    private static func json<Body: Encodable>(_ status: HTTPResponse.Status, _ body: Body) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(body))))
    }

    /// The query, decoded as a form (`+` is a space); the first value of a name wins.
    static func queryDictionary(_ request: Request) -> [String: String] {
        formFields(request.uri.query ?? "")
    }

    /// An `application/x-www-form-urlencoded` body (at most `limit` bytes, 16 KiB unless said);
    /// the first value of a name wins.
    static func formBody(_ request: Request, limit: Int = maxFormBytes) async throws -> [String: String] {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
            throw OAuthError("invalid_request", "The body must be application/x-www-form-urlencoded.")
        }
        let data = try await CognitoAPIResponder.collect(request.body, limit: limit)
        return formFields(String(decoding: data, as: UTF8.self))
    }

    static func formFields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            let name = decode(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return fields
    }

    /// HTTP Basic client credentials (`client_id:client_secret`, each form-encoded).
    static func basicCredentials(_ request: Request) -> (id: String, secret: String)? {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(header.dropFirst("basic ".count)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        let decode = { (part: Substring) in String(part).removingPercentEncoding ?? String(part) }
        return (decode(text[..<colon]), decode(text[text.index(after: colon)...]))
    }
}
