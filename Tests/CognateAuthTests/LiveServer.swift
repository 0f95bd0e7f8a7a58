import CognateAssembly
import CognateAuth
import CognateCore
import CognateProtocol
import CognateServer
import CognateStorage
import CognateTestSupport
import Foundation
import Logging
import Testing

struct LiveServerFailure: Error, CustomStringConvertible {
    let description: String
}

/// A Cognate server on a free port with a fresh SQLite database, for one test.
struct LiveServer: Sendable {
    let server: CognateServer
    let endpoint: URL
    let directory: URL

    var service: IdentityService { server.service }

    /// Starts a server, runs `body`, then stops the server (cancelling it) and removes its files.
    /// `stsEndpoint` is the STS identity pools' GetCredentialsForIdentity calls (none by default).
    static func with(stsEndpoint: URL? = nil, _ body: (LiveServer) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cognate-auth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (server, running, port) = try await start(stsEndpoint: stsEndpoint, directory: directory)
        let live = LiveServer(server: server, endpoint: URL(string: "http://127.0.0.1:\(port)/")!, directory: directory)
        do {
            try await body(live)
        } catch {
            await stop(running, server: server, directory: directory)
            throw error
        }
        await stop(running, server: server, directory: directory)
    }

    /// A running server and its port. The port is picked below the kernel's ephemeral range
    /// (the server's own pick for port 0 is a port outgoing connections of parallel tests can
    /// take before it binds it); one taken meanwhile by another test's server is tried again.
    private static func start(stsEndpoint: URL?, directory: URL) async throws
        -> (CognateServer, Task<Void, any Error>, Int)
    {
        var logger = Logger(label: "cognate-test")
        logger.logLevel = .critical  // cancelling the server at the end logs errors
        for attempt in 1...5 {
            var configuration = ServerConfiguration()
            configuration.port = try FreePort.pick()
            configuration.database = directory.appendingPathComponent("cognate.sqlite").path
            configuration.stsEndpoint = stsEndpoint
            let server: CognateServer
            do {
                server = try await ServerAssembly.prepare(configuration, logger: logger)
            } catch is CognateServer.PortInUse where attempt < 5 {
                continue
            }
            let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
            // The stream ends when the server stops, so a server that fails to start fails the
            // test with its error instead of leaving it waiting for a port.
            let running = Task {
                defer { portContinuation.finish() }
                try await server.run { port in portContinuation.yield(port) }
            }
            for await port in ports { return (server, running, port) }
            let failure = await running.result
            await server.close()
            if case .failure(let error) = failure, error is CognateServer.PortInUse, attempt < 5 { continue }
            try failure.get()
            throw LiveServerFailure(description: "the server stopped before it listened")
        }
        throw LiveServerFailure(description: "no free port for the server")
    }

    /// Cancels the server and closes its database from this (uncancelled) task: the close
    /// that `CognateServer.run` attempts itself runs in the cancelled task and is skipped.
    private static func stop(_ running: Task<Void, any Error>, server: CognateServer, directory: URL) async {
        running.cancel()
        _ = await running.result
        await server.close()
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - Admin setup (directly on the service, as an operator would with the AWS CLI)

    /// A pool that sends sign-up codes by email. `emailSignIn` makes email the username
    /// (internal usernames are then UUIDs); `functions` are its Lambda triggers (TestFunctions);
    /// `devices` makes it track devices; `firstFactors` are the factors of choice-based sign-in
    /// it allows (nil: the password only), and `passkeysFor` the relying party of its passkeys.
    func makePool(emailSignIn: Bool = false, schema: [SchemaAttributeType] = [], functions: LambdaConfigType? = nil,
                  devices: DeviceConfigurationType? = nil, firstFactors: [AuthFactorType]? = nil,
                  passkeysFor relyingParty: String? = nil) async throws -> String
    {
        let pool = try await service.pools.createUserPool(CreateUserPoolRequest(
            poolName: "auth-\(UUID().uuidString.prefix(8))",
            policies: UserPoolPolicyType(
                passwordPolicy: PasswordPolicyType(
                    minimumLength: 8, requireUppercase: true, requireLowercase: true, requireNumbers: true, requireSymbols: false),
                signInPolicy: firstFactors.map { SignInPolicyType(allowedFirstAuthFactors: $0) }),
            lambdaConfig: functions,
            autoVerifiedAttributes: [.email], usernameAttributes: emailSignIn ? [.email] : nil, deviceConfiguration: devices,
            schema: schema.isEmpty ? nil : schema))
        let id = try #require(pool.userPool?.id)
        if let relyingParty {
            _ = try await service.pools.setUserPoolMfaConfig(SetUserPoolMfaConfigRequest(
                userPoolId: id, webAuthnConfiguration: WebAuthnConfigurationType(relyingPartyId: relyingParty)))
        }
        return id
    }

    struct AppClient {
        var id: String
        var secret: String?
    }

    /// An app client allowing SRP, password and refresh flows (and choice-based sign-in with
    /// `userAuth`). `shortLivedTokens` makes access and ID tokens last 5 minutes (the minimum).
    func makeClient(pool: String, secret: Bool = false, shortLivedTokens: Bool = false, userAuth: Bool = false)
        async throws -> AppClient
    {
        let client = try await service.clients.createUserPoolClient(CreateUserPoolClientRequest(
            userPoolId: pool, clientName: "app", generateSecret: secret,
            accessTokenValidity: shortLivedTokens ? 5 : nil, idTokenValidity: shortLivedTokens ? 5 : nil,
            tokenValidityUnits: shortLivedTokens ? TokenValidityUnitsType(accessToken: .minutes, idToken: .minutes) : nil,
            explicitAuthFlows: [.allowUserSrpAuth, .allowUserPasswordAuth, .allowRefreshTokenAuth]
                + (userAuth ? [.allowUserAuth] : []))).userPoolClient
        return AppClient(id: try #require(client?.clientId), secret: client?.clientSecret)
    }

    func configuration(
        pool: String, client: AppClient, store: any TokenStore = InMemoryTokenStore(), profile: String = "default",
        refreshMargin: TimeInterval = 300, transport: any HTTPTransport = URLSessionTransport(),
        identityPoolId: String? = nil
    ) -> AuthConfiguration {
        var configuration = AuthConfiguration(
            endpoint: endpoint, userPoolId: pool, clientId: client.id, clientSecret: client.secret,
            identityPoolId: identityPoolId, tokenStore: store, profile: profile, refreshMargin: refreshMargin,
            transport: transport)
        if CognitoShapeTransport.enabled, let port = endpoint.port {
            configuration.oauthDomain = URL(string: "http://localhost:\(port)/")
            configuration.transport = CognitoShapeTransport(inner: transport, apiHost: "127.0.0.1", domainHost: "localhost")
        }
        return configuration
    }

    func authClient(
        pool: String, client: AppClient, store: any TokenStore = InMemoryTokenStore(), profile: String = "default",
        refreshMargin: TimeInterval = 300, transport: any HTTPTransport = URLSessionTransport(),
        identityPoolId: String? = nil
    ) -> AuthClient {
        AuthClient(configuration: configuration(
            pool: pool, client: client, store: store, profile: profile, refreshMargin: refreshMargin, transport: transport,
            identityPoolId: identityPoolId))
    }

    // MARK: - The dev outbox

    /// The code of the newest message sent to `destination`.
    func lastCode(to destination: String) async throws -> String {
        let messages = try await server.store.read { try await $0.outboxMessages(poolId: nil, afterId: nil, limit: 10_000) }
        return try #require(messages.last { $0.message.destination == destination && $0.message.code != nil }?.message.code)
    }

    /// Signs a user up and confirms them with the emailed code.
    func confirmedUser(_ client: AuthClient, username: String, email: String, password: String = "Passw0rd1",
                       attributes: [String: String] = [:]) async throws {
        _ = try await client.signUp(username: username, password: password,
                                    attributes: attributes.merging(["email": email]) { $1 })
        try await client.confirmSignUp(username: username, code: try await lastCode(to: email))
    }
}

/// A unique, valid email address.
func uniqueEmail(_ prefix: String = "user") -> String { "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())@example.com" }

/// Asserts `body` throws an ``AuthError`` matching `matches`, and returns it.
@discardableResult
func expectAuthError(
    _ body: () async throws -> Void, sourceLocation: Testing.SourceLocation = #_sourceLocation,
    _ matches: (AuthError) -> Bool
) async -> AuthError? {
    do {
        try await body()
        Issue.record("expected an AuthError, got success", sourceLocation: sourceLocation)
    } catch let error as AuthError {
        #expect(matches(error), "unexpected \(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected an AuthError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
