import CognateAuth
import CognateProtocol
import CognateTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

@testable import CognateCore

/// `signInWithWebUI` against a live server: the loopback presenter listens for the redirect,
/// a scripted browser (URLSession) signs in on the hosted page, the SDK exchanges the code with
/// its PKCE verifier and stores tokens that refresh and call the API.
struct WebUITests {
    @Test func theHostedSignInComesBackToTheLoopbackListener() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let port = try FreePort.pick()
            let callback = try #require(URL(string: "http://127.0.0.1:\(port)/callback"))
            let created = try await live.service.clients.createUserPoolClient(CreateUserPoolClientRequest(
                userPoolId: pool, clientName: "web", generateSecret: true,
                explicitAuthFlows: [.allowUserSrpAuth, .allowRefreshTokenAuth], supportedIdentityProviders: ["COGNITO"],
                callbackURLs: [callback.absoluteString], allowedOAuthFlows: [.code],
                allowedOAuthScopes: ["openid", "email", "profile", "aws.cognito.signin.user.admin"],
                allowedOAuthFlowsUserPoolClient: true)).userPoolClient
            let app = LiveServer.AppClient(id: try #require(created?.clientId), secret: created?.clientSecret)
            let client = live.authClient(pool: pool, client: app)
            try await live.confirmedUser(client, username: "web-ada", email: uniqueEmail("web"))

            let presenter = LoopbackBrowserPresenter(timeout: 30) { url in
                try await Self.signInLikeABrowser(url, endpoint: live.endpoint, username: "web-ada", password: "Passw0rd1")
            }
            guard case .signedIn(let user) = try await client.signInWithWebUI(callbackURL: callback, presenter: presenter) else {
                Issue.record("expected signedIn")
                return
            }
            #expect(user.username == "web-ada")
            #expect(try await client.fetchUserAttributes()["email"]?.hasSuffix("@example.com") == true)
            let refreshed = try await client.refreshSession()
            #expect(!refreshed.accessToken.isEmpty)

            // A scope the client does not allow comes back as the pool's refusal.
            await #expect(throws: AuthError.webSignIn(
                error: "invalid_scope", description: "The client is not allowed the scope phone.")) {
                _ = try await client.signInWithWebUI(
                    callbackURL: callback, scopes: ["openid", "phone"],
                    presenter: LoopbackBrowserPresenter(timeout: 30) { url in _ = try await URLSession.shared.data(from: url) })
            }
        }
    }

    /// Any local process can reach the loopback port: requests without this sign-in's state
    /// (a forged code, a forged error) and a connection that sends nothing are turned away,
    /// and the browser's redirect still signs in. The sign-in asks for a nonce and checks it.
    @Test(.timeLimit(.minutes(1))) func localProcessesCannotAnswerTheLoopbackFirst() async throws {
        try await LiveServer.with { live in
            let (pool, app, callback) = try await Self.webClient(live)
            let client = live.authClient(pool: pool, client: app)
            try await live.confirmedUser(client, username: "web-ada", email: uniqueEmail("web"))
            let opened = OpenedURL()
            let presenter = LoopbackBrowserPresenter(timeout: 30) { url in
                opened.url = url
                let base = callback.absoluteString
                for forged in ["?code=forged", "?error=access_denied", "?code=forged&state=guessed", "?state=&code=x", "?x=1"] {
                    let (_, response) = try await URLSession.shared.data(from: try #require(URL(string: base + forged)))
                    #expect((response as? HTTPURLResponse)?.statusCode == 400, "\(forged)")
                }
                let idle = try Self.openIdleConnection(port: callback.port ?? 0)
                defer { close(idle) }
                try await Self.signInLikeABrowser(url, endpoint: live.endpoint, username: "web-ada", password: "Passw0rd1")
            }
            guard case .signedIn(let user) = try await client.signInWithWebUI(callbackURL: callback, presenter: presenter) else {
                Issue.record("expected signedIn")
                return
            }
            #expect(user.username == "web-ada")
            let query = Dictionary(
                (URLComponents(url: try #require(opened.url), resolvingAgainstBaseURL: false)?.queryItems ?? [])
                    .map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
            #expect(query["state"]?.count == 43)      // 32 random bytes, base64url
            #expect(query["nonce"]?.count == 43)
            let idToken = try await client.currentSession().idToken
            let payload = try #require(Base64URL.decode(String(idToken.split(separator: ".")[1])))
            let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
            #expect(claims["nonce"] as? String == query["nonce"])
        }
    }

    /// Against Amazon Cognito the hosted pages live on the pool's domain, not the API's: with
    /// the OAuth domain configured (here the same server under another name), the presenter
    /// and the token exchange use it, and the hosted sign-out goes there too and comes back
    /// to the client's logout URL.
    @Test(.timeLimit(.minutes(1))) func theOAuthDomainServesSignInTokenExchangeAndSignOut() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let callback = try #require(URL(string: "http://127.0.0.1:\(try FreePort.pick())/callback"))
            let logout = try #require(URL(string: "http://127.0.0.1:\(try FreePort.pick())/signed-out"))
            let created = try await live.service.clients.createUserPoolClient(CreateUserPoolClientRequest(
                userPoolId: pool, clientName: "web", generateSecret: true,
                explicitAuthFlows: [.allowUserSrpAuth, .allowRefreshTokenAuth], supportedIdentityProviders: ["COGNITO"],
                callbackURLs: [callback.absoluteString], logoutURLs: [logout.absoluteString], allowedOAuthFlows: [.code],
                allowedOAuthScopes: ["openid", "email", "profile", "aws.cognito.signin.user.admin"],
                allowedOAuthFlowsUserPoolClient: true)).userPoolClient
            let app = LiveServer.AppClient(id: try #require(created?.clientId), secret: created?.clientSecret)
            let port = try #require(live.endpoint.port)
            let domain = try #require(URL(string: "http://localhost:\(port)/"))
            let transport = RecordingTransport()
            var configuration = live.configuration(pool: pool, client: app, transport: transport)
            configuration.oauthDomain = domain
            let client = AuthClient(configuration: configuration)
            try await live.confirmedUser(client, username: "web-ada", email: uniqueEmail("web"))

            let opened = OpenedURL()
            let presenter = LoopbackBrowserPresenter(timeout: 30) { url in
                opened.url = url
                try await Self.signInLikeABrowser(url, endpoint: domain, username: "web-ada", password: "Passw0rd1")
            }
            guard case .signedIn = try await client.signInWithWebUI(callbackURL: callback, presenter: presenter) else {
                Issue.record("expected signedIn")
                return
            }
            let authorize = try #require(opened.url)
            #expect(authorize.host == "localhost" && authorize.path == "/oauth2/authorize")
            #expect(transport.urls.contains { $0.host == "localhost" && $0.path == "/oauth2/token" })
            #expect(!transport.urls.contains { $0.host == "127.0.0.1" && $0.path.hasPrefix("/oauth2") })

            let signOutOpened = OpenedURL()
            let result = try await client.signOutOfWebUI(logoutURL: logout, presenter: LoopbackBrowserPresenter(timeout: 30) { url in
                signOutOpened.url = url
                let (page, _) = try await URLSession.shared.data(from: url)   // follows the redirect to the logout URL
                #expect(String(decoding: page, as: UTF8.self).contains("<title>Signed out</title>"))
            })
            #expect(result.signedOutOnServer)
            let signOutURL = try #require(signOutOpened.url)
            let expected = try client.hostedSignOutURL(logoutURL: logout)
            #expect(signOutURL == expected)
            let query = Dictionary(
                (URLComponents(url: signOutURL, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") },
                uniquingKeysWith: { first, _ in first })
            #expect(signOutURL.host == "localhost" && signOutURL.path == "/logout")
            #expect(query == ["client_id": app.id, "logout_uri": logout.absoluteString])
            await expectAuthError({ _ = try await client.currentSession() }) { $0 == .notSignedIn }
        }
    }

    /// Every request's URL, passed on to the server.
    final class RecordingTransport: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var sent: [URL] = []
        private let inner = URLSessionTransport()
        var urls: [URL] { lock.withLock { sent } }
        func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
            lock.withLock { sent.append(request.url) }
            return try await inner.send(request)
        }
    }

    /// Cancelling the sign-in ends the wait for the browser, even while a local process holds
    /// an idle connection to the port.
    @Test(.timeLimit(.minutes(1))) func cancellingEndsTheWaitDespiteAnIdleConnection() async throws {
        try await LiveServer.with { live in
            let (pool, app, callback) = try await Self.webClient(live)
            let client = live.authClient(pool: pool, client: app)
            let holder = IdleConnections()
            let idlePresenter = LoopbackBrowserPresenter(timeout: 300) { _ in
                holder.add(try Self.openIdleConnection(port: callback.port ?? 0))
            }
            defer { holder.closeAll() }
            let started = Date()
            let signIn = Task { try await client.signInWithWebUI(callbackURL: callback, presenter: idlePresenter) }
            try await Task.sleep(for: .milliseconds(800))
            signIn.cancel()
            let result = await signIn.result
            guard case .failure(let error) = result, error is CancellationError else {
                Issue.record("expected CancellationError, got \(result)")
                return
            }
            #expect(Date().timeIntervalSince(started) < 10)
        }
    }

    /// Connections a test holds open, closed at its end.
    final class IdleConnections: @unchecked Sendable {
        private let lock = NSLock()
        private var descriptors: [Int32] = []
        func add(_ descriptor: Int32) { lock.withLock { descriptors.append(descriptor) } }
        func closeAll() { lock.withLock { descriptors.forEach { close($0) }; descriptors = [] } }
    }

    /// A redirect that carries an error but not this sign-in's state is not the pool's answer.
    @Test func anErrorWithoutTheStateIsNotThePools() async throws {
        try await LiveServer.with { live in
            let (pool, app, callback) = try await Self.webClient(live)
            let client = live.authClient(pool: pool, client: app)
            struct Forger: WebUIPresenter {
                func present(_ url: URL, callbackURL: URL) async throws -> URL {
                    URL(string: callbackURL.absoluteString + "?error=access_denied&error_description=forged")!
                }
            }
            await expectAuthError({ _ = try await client.signInWithWebUI(callbackURL: callback, presenter: Forger()) }) {
                if case .invalidResponse = $0 { true } else { false }
            }
        }
    }

    /// `localhost` may resolve to the other address family, where another process could
    /// listen on the same port: only a literal loopback address is accepted.
    @Test func theCallbackMustNameALiteralLoopbackAddress() async throws {
        let presenter = LoopbackBrowserPresenter(timeout: 1) { _ in }
        let url = try #require(URL(string: "http://127.0.0.1:1/oauth2/authorize?state=abc"))
        for callback in ["http://localhost:\(try FreePort.pick())/callback", "https://127.0.0.1:\(try FreePort.pick())/callback"] {
            await expectAuthError({ _ = try await presenter.present(url, callbackURL: try #require(URL(string: callback))) }) {
                if case .invalidState = $0 { true } else { false }
            }
        }
    }

    /// A pool with an app client for the hosted pages whose callback is a free loopback port.
    static func webClient(_ live: LiveServer) async throws -> (String, LiveServer.AppClient, URL) {
        let pool = try await live.makePool()
        let callback = try #require(URL(string: "http://127.0.0.1:\(try FreePort.pick())/callback"))
        let created = try await live.service.clients.createUserPoolClient(CreateUserPoolClientRequest(
            userPoolId: pool, clientName: "web", generateSecret: true,
            explicitAuthFlows: [.allowUserSrpAuth, .allowRefreshTokenAuth], supportedIdentityProviders: ["COGNITO"],
            callbackURLs: [callback.absoluteString], allowedOAuthFlows: [.code],
            allowedOAuthScopes: ["openid", "email", "profile", "aws.cognito.signin.user.admin"],
            allowedOAuthFlowsUserPoolClient: true)).userPoolClient
        return (pool, LiveServer.AppClient(id: try #require(created?.clientId), secret: created?.clientSecret), callback)
    }

    /// A TCP connection to the loopback port that sends nothing.
    static func openIdleConnection(port: Int) throws -> Int32 {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(descriptor)
            throw URLError(.cannotConnectToHost)
        }
        return descriptor
    }

    /// The sign-in URL a presenter was given.
    final class OpenedURL: @unchecked Sendable {
        private let lock = NSLock()
        private var value: URL?
        var url: URL? {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }

    /// What a user does in a browser: open the page, fill in the form, submit; the redirect
    /// to the app is followed to the loopback listener.
    static func signInLikeABrowser(_ url: URL, endpoint: URL, username: String, password: String) async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        let session = URLSession(configuration: configuration)
        let (data, response) = try await session.data(from: url)
        let page = String(decoding: data, as: UTF8.self)
        let cookie = try #require((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Set-Cookie")?
            .split(separator: ";").first.map(String.init))
        let flow = try #require(page.firstRange(of: #/name="flow" value="([^"]+)"/#).map { String(page[$0]) }
            .flatMap { $0.split(separator: "\"").dropFirst(3).first.map(String.init) })
        var request = URLRequest(url: endpoint.appendingPathComponent("login"))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue(cookie, forHTTPHeaderField: "Cookie")
        request.httpBody = Data("flow=\(flow)&username=\(username)&password=\(password)".utf8)
        _ = try await session.data(for: request)
    }

}
