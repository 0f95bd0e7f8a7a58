import CognateAuth
import CognateProtocol
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// App clients with refresh token rotation: REFRESH_TOKEN_AUTH is refused for them (as by
/// Cognito), so the SDK refreshes with GetTokensFromRefreshToken and stores each new refresh
/// token with the new ID and access tokens.
struct RefreshRotationTests {
    /// Without being told, the SDK meets the refusal once, switches, and from then on asks
    /// GetTokensFromRefreshToken directly; the replaced refresh token no longer works.
    @Test func aRotatingClientIsFoundOutAndEachNewRefreshTokenStored() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let app = try await Self.rotatingClient(live, pool: pool, secret: true)
            let counting = CountingTransport()
            let client = live.authClient(pool: pool, client: app, transport: counting)
            try await live.confirmedUser(client, username: "rota", email: uniqueEmail("rota"))
            guard case .signedIn = try await client.signIn(username: "rota", password: "Passw0rd1") else {
                Issue.record("expected signedIn")
                return
            }
            let first = try await client.currentSession()

            let second = try await client.refreshSession()
            #expect(second.refreshToken != first.refreshToken && second.accessToken != first.accessToken)
            #expect(counting.refreshCount == 1 && counting.count("GetTokensFromRefreshToken") == 1)
            let stored = try await client.currentSession()   // stored, refresh token included
            #expect(stored.refreshToken == second.refreshToken && stored.accessToken == second.accessToken)

            let third = try await client.refreshSession()
            #expect(third.refreshToken != second.refreshToken)
            #expect(counting.refreshCount == 1 && counting.count("GetTokensFromRefreshToken") == 2)
            #expect(counting.sentBodies("GetTokensFromRefreshToken").last?["ClientSecret"] as? String == app.secret)

            // The replaced token is dead (no grace period), the stored one lives.
            #expect(try await Self.renew(live, app: app, refreshToken: first.refreshToken) == 400)
            #expect(try await Self.renew(live, app: app, refreshToken: third.refreshToken) == 200)
        }
    }

    /// Configured as rotating, the SDK never tries REFRESH_TOKEN_AUTH; a refused token still
    /// ends the session as `sessionExpired`.
    @Test func aClientConfiguredAsRotatingRefreshesOneWay() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let app = try await Self.rotatingClient(live, pool: pool, secret: false)
            let counting = CountingTransport()
            var configuration = live.configuration(pool: pool, client: app, transport: counting)
            configuration.refreshTokenRotation = true
            let client = AuthClient(configuration: configuration)
            try await live.confirmedUser(client, username: "rotb", email: uniqueEmail("rota"))
            _ = try await client.signIn(username: "rotb", password: "Passw0rd1")
            let before = try await client.currentSession()
            let after = try await client.refreshSession()
            #expect(after.refreshToken != before.refreshToken)
            #expect(counting.refreshCount == 0 && counting.count("GetTokensFromRefreshToken") == 1)

            // Someone else used the stored token first (a copy of it): it is replaced and dead.
            #expect(try await Self.renew(live, app: app, refreshToken: after.refreshToken) == 200)
            await expectAuthError({ _ = try await client.refreshSession() }) {
                if case .sessionExpired = $0 { true } else { false }
            }
            #expect(await client.state() == .sessionExpired)
        }
    }

    /// A client that does not rotate keeps REFRESH_TOKEN_AUTH and its refresh token.
    @Test func aClientWithoutRotationKeepsRefreshTokenAuth() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let app = try await live.makeClient(pool: pool)
            let counting = CountingTransport()
            let client = live.authClient(pool: pool, client: app, transport: counting)
            try await live.confirmedUser(client, username: "rotc", email: uniqueEmail("rota"))
            _ = try await client.signIn(username: "rotc", password: "Passw0rd1")
            let before = try await client.currentSession()
            let after = try await client.refreshSession()
            #expect(after.refreshToken == before.refreshToken)
            #expect(counting.refreshCount == 1 && counting.count("GetTokensFromRefreshToken") == 0)
        }
    }

    /// An app client with RefreshTokenRotation enabled and no grace period (as the compat tests
    /// create one), allowing SRP and password sign-in.
    static func rotatingClient(_ live: LiveServer, pool: String, secret: Bool) async throws -> LiveServer.AppClient {
        let client = try await live.service.clients.createUserPoolClient(CreateUserPoolClientRequest(
            userPoolId: pool, clientName: "rotating", generateSecret: secret,
            explicitAuthFlows: [.allowUserSrpAuth, .allowUserPasswordAuth, .allowRefreshTokenAuth],
            refreshTokenRotation: RefreshTokenRotationType(feature: .enabled, retryGracePeriodSeconds: 0))).userPoolClient
        return LiveServer.AppClient(id: try #require(client?.clientId), secret: client?.clientSecret)
    }

    /// GetTokensFromRefreshToken sent by hand (another holder of the token): its HTTP status.
    static func renew(_ live: LiveServer, app: LiveServer.AppClient, refreshToken: String) async throws -> Int {
        var body: [String: String] = ["RefreshToken": refreshToken, "ClientId": app.id]
        if let secret = app.secret { body["ClientSecret"] = secret }
        let response = try await URLSessionTransport().send(HTTPTransportRequest(
            url: live.endpoint,
            headers: ["Content-Type": "application/x-amz-json-1.1",
                      "X-Amz-Target": "AWSCognitoIdentityProviderService.GetTokensFromRefreshToken"],
            body: try JSONSerialization.data(withJSONObject: body)))
        return response.statusCode
    }
}
