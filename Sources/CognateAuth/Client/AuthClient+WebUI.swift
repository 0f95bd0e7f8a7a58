import CognateProtocol
import Crypto
import Foundation

extension AuthClient {
    /// Signs in through the pool's hosted pages (OAuth 2.0 authorization code with PKCE): the
    /// `presenter` shows `/oauth2/authorize` (``LoopbackBrowserPresenter`` on Linux and in
    /// command-line tools, `WebAuthenticationSessionPresenter` on Apple platforms), the user
    /// signs in (or signs up) there, and the code that comes back to `callbackURL` — one of the
    /// app client's CallbackURLs — is exchanged at `/oauth2/token`. The tokens are stored as
    /// after any sign-in and refresh the same way.
    ///
    /// - Parameters:
    ///   - scopes: what to ask for; the client must allow them (`aws.cognito.signin.user.admin`
    ///     lets the tokens call the API's self-service operations, `openid` brings an ID token).
    ///   - provider: an identity provider name for `identity_provider` (nil: the pool's own
    ///     sign-in).
    /// - Throws: ``AuthError`` — `webSignIn(error:description:)` when the pool refused the
    ///   request or the exchange (`access_denied`, `invalid_scope`, `invalid_grant` …),
    ///   `invalidResponse` when the browser came back with another request's state (checked
    ///   before any error it brings) or the ID token is not this sign-in's (its `nonce`, `aud`
    ///   and `iss` are checked).
    public func signInWithWebUI(
        callbackURL: URL, scopes: [String] = ["openid", "email", "profile", "aws.cognito.signin.user.admin"],
        provider: String? = nil, presenter: any WebUIPresenter
    ) async throws -> SignInStep {
        let verifier = Self.base64URL(SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })
        let challenge = Self.base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
        let state = Self.base64URL(SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })
        let nonce = Self.base64URL(SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })
        var query = [
            URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "client_id", value: configuration.clientId),
            URLQueryItem(name: "redirect_uri", value: callbackURL.absoluteString),
            URLQueryItem(name: "scope", value: scopes.joined(separator: " ")), URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "nonce", value: nonce),
            URLQueryItem(name: "code_challenge", value: challenge), URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        if let provider { query.append(URLQueryItem(name: "identity_provider", value: provider)) }
        guard var components = URLComponents(url: configuration.oauthBase.appendingPathComponent("oauth2/authorize"),
                                              resolvingAgainstBaseURL: false)
        else { throw AuthError.invalidState("The OAuth domain is not a URL.") }
        components.queryItems = query
        guard let authorizeURL = components.url else { throw AuthError.invalidState("The authorization URL cannot be built.") }

        pendingChallenge = nil
        let redirected = try await presenter.present(authorizeURL, callbackURL: callbackURL)
        let answer = Dictionary(
            (URLComponents(url: redirected, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") },
            uniquingKeysWith: { first, _ in first })
        // The state first: an error without this sign-in's state is anyone's, not the pool's.
        guard answer["state"] == state else {
            throw AuthError.invalidResponse("The browser came back without this sign-in's state.")
        }
        if let error = answer["error"] {
            throw AuthError.webSignIn(error: error, description: answer["error_description"] ?? "")
        }
        guard let code = answer["code"] else {
            throw AuthError.invalidResponse("The browser came back without a code.")
        }
        let result = try await exchangeCode(code, verifier: verifier, callbackURL: callbackURL)
        try checkIDToken(result.idToken, nonce: nonce)
        let tokens = try AuthTokens(result)
        return try await nextStep(
            after: AuthResponse(InitiateAuthResponse(challengeParameters: [:], authenticationResult: result)),
            username: tokens.user.username)
    }

    /// Signs out of the hosted pages too: the browser opens the pool's `/logout` (on
    /// ``AuthConfiguration/oauthDomain``), which ends its single sign-on session and sends it on
    /// to `logoutURL` — one of the app client's LogoutURLs —, then ``signOut(globally:)`` ends
    /// this profile's session. Without the first part the next ``signInWithWebUI(callbackURL:scopes:provider:presenter:)``
    /// would sign the same user in again without asking, which an app with several profiles
    /// (another user on this device) must avoid.
    ///
    /// - Returns: as ``signOut(globally:)``; `.localOnly(error)` also when the browser part
    ///   failed (the presenter's error, as ``AuthError``): the local sign-out happens either way.
    /// - Throws: as ``signOut(globally:)``; `CancellationError` when the user or the task
    ///   cancelled the browser part (the local sign-out has happened all the same).
    @discardableResult
    public func signOutOfWebUI(logoutURL: URL, globally: Bool = false, presenter: any WebUIPresenter) async throws
        -> SignOutResult
    {
        var outcome = SignOutResult.complete
        var cancelled = false
        do {
            try await presenter.presentSignOut(try hostedSignOutURL(logoutURL: logoutURL), logoutURL: logoutURL)
        } catch {
            (outcome, cancelled) = Self.serverOutcome(of: error, outcome)
        }
        let local = try await signOut(globally: globally)
        if cancelled { throw CancellationError() }
        if case .complete = outcome { return local }
        return outcome
    }

    /// The pool's hosted sign-out address for this app client:
    /// `<oauthDomain>/logout?client_id=…&logout_uri=…`, for apps that open it themselves.
    public nonisolated func hostedSignOutURL(logoutURL: URL) throws -> URL {
        guard var components = URLComponents(url: configuration.oauthBase.appendingPathComponent("logout"),
                                              resolvingAgainstBaseURL: false)
        else { throw AuthError.invalidState("The OAuth domain is not a URL.") }
        components.queryItems = [URLQueryItem(name: "client_id", value: configuration.clientId),
                                 URLQueryItem(name: "logout_uri", value: logoutURL.absoluteString)]
        guard let url = components.url else { throw AuthError.invalidState("The sign-out address cannot be built.") }
        return url
    }

    /// Checks that the ID token was issued for this sign-in: its `nonce` is the one sent, its
    /// `aud` this app client, its `iss` this user pool (`…/<userPoolId>`).
    private func checkIDToken(_ idToken: String?, nonce: String) throws {
        guard let idToken, let payload = JWTPayload(token: idToken) else {
            throw AuthError.invalidResponse("The token endpoint returned no readable ID token.")
        }
        let audiences: [String]
        switch payload.claims["aud"] {
        case .string(let value)?: audiences = [value]
        case .array(let values)?: audiences = values.compactMap { if case .string(let value) = $0 { value } else { nil } }
        default: audiences = []
        }
        guard payload.string("nonce") == nonce else {
            throw AuthError.invalidResponse("The ID token does not carry this sign-in's nonce.")
        }
        guard audiences.contains(configuration.clientId) else {
            throw AuthError.invalidResponse("The ID token was not issued to this app client.")
        }
        guard let issuer = payload.string("iss"), issuer.hasSuffix("/" + configuration.userPoolId) else {
            throw AuthError.invalidResponse("The ID token was not issued by this user pool.")
        }
    }

    /// `POST /oauth2/token` with the authorization code and the PKCE verifier (the client's
    /// secret as HTTP Basic when it has one).
    private func exchangeCode(_ code: String, verifier: String, callbackURL: URL) async throws -> AuthenticationResultType {
        let form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", callbackURL.absoluteString),
                    ("code_verifier", verifier), ("client_id", configuration.clientId)]
        var headers = ["Content-Type": "application/x-www-form-urlencoded"]
        if let secret = configuration.clientSecret {
            let credentials = "\(Self.formValue(configuration.clientId)):\(Self.formValue(secret))"
            headers["Authorization"] = "Basic " + Data(credentials.utf8).base64EncodedString()
        }
        let body = form.map { "\($0.0)=\(Self.formValue($0.1))" }.joined(separator: "&")
        let response: HTTPTransportResponse
        do {
            response = try await configuration.transport.send(HTTPTransportRequest(
                url: configuration.oauthBase.appendingPathComponent("oauth2/token"), headers: headers, body: Data(body.utf8)))
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw AuthError.network(error)
        }
        struct TokenAnswer: Decodable {
            var access_token: String?
            var id_token: String?
            var refresh_token: String?
            var expires_in: Int?
            var error: String?
            var error_description: String?
        }
        guard let answer = try? JSONDecoder().decode(TokenAnswer.self, from: response.body) else {
            throw AuthError.invalidResponse("The token endpoint answered \(response.statusCode) without JSON.")
        }
        if let error = answer.error { throw AuthError.webSignIn(error: error, description: answer.error_description ?? "") }
        guard response.statusCode == 200, let access = answer.access_token, let id = answer.id_token,
            let refresh = answer.refresh_token
        else { throw AuthError.invalidResponse("The token endpoint did not return ID, access and refresh tokens (ask for openid).") }
        return AuthenticationResultType(
            accessToken: access, expiresIn: answer.expires_in ?? 3600, tokenType: "Bearer", refreshToken: refresh, idToken: id)
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func formValue(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
