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
