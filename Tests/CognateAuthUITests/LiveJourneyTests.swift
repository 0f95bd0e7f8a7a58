import CognateAssembly
import CognateAuth
import CognateProtocol
import CognateServer
import CognateStorage
import CognateTestSupport
import Foundation
import Logging
import Testing

@testable import CognateAuthUI
@testable import CognateCore

/// The Authenticator over a real AuthClient on an in-process Cognate server: sign-up with the
/// emailed code, sign-out, a wrong password, a password reset, and sign-in again.
@MainActor
struct LiveJourneyTests {
    let strings = AuthenticatorStrings()

    @Test func signUpConfirmResetAndSignInAgainstALiveServer() async throws {
        try await UIServer.with { live in
            let pool = try await live.makePool()
            let client = try await live.makeClient(pool: pool)
            let auth = AuthClient(
                configuration: AuthConfiguration(
                    endpoint: live.endpoint, userPoolId: pool, clientId: client, tokenStore: InMemoryTokenStore()))
            let model = AuthenticatorModel(
                auth: auth,
                signUpFields: [
                    .username(), .email(), .password(), .confirmPassword(), .text("given_name"),
                ])
            let following = Task { await model.run() }
            defer { following.cancel() }
            await model.waitUntil("the sign-in screen") { $0.screen == .signIn }

            let email = "ui-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            await model.perform(.goToSignUp)
            await model.submit([
                Key.username: "ada", "email": email, Key.password: "weak", Key.confirmPassword: "weak", "given_name": "Ada",
            ])
            // The pool's policy refuses the password: its message is the banner.
            guard case .invalidPassword(let policy)? = model.lastError else {
                Issue.record("expected invalidPassword, got \(String(describing: model.lastError))")
                return
            }
            #expect(model.errorMessage == policy && model.screen == .signUp)

            await model.submit([Key.password: "Passw0rd1", Key.confirmPassword: "Passw0rd1"])
            guard case .confirmSignUp("ada", let delivery?) = model.screen else {
                Issue.record("expected the code screen, got \(model.screen), \(model.errorMessage ?? "")")
                return
            }
            #expect(delivery.medium == .email && delivery.attributeName == "email")
            await model.submit([Key.code: "000000"])
            #expect(model.errorMessage == strings.codeMismatch)
            await model.submit([Key.code: try await live.lastCode(to: email)])
            expectSignedIn(model, as: "ada")
            #expect(model.user?.attributes["given_name"] == "Ada")
            #expect(await auth.state() == model.user.map(AuthState.signedIn))

            await model.perform(.signOut)
            #expect(model.screen == .signIn)
            #expect(await auth.state() == .signedOut)

            await model.submit([Key.username: "ada", Key.password: "Wrong0ne1"])
            #expect(model.errorMessage == strings.incorrectCredentials)

            await model.perform(.goToForgotPassword)
            await model.submit([Key.username: "ada"])
            guard case .confirmResetPassword("ada", _) = model.screen else {
                Issue.record("expected the reset screen, got \(model.screen), \(model.errorMessage ?? "")")
                return
            }
            let code = try await live.lastCode(to: email)
            await model.submit([Key.code: code, Key.newPassword: "Rep1aced-pw", Key.confirmPassword: "Rep1aced-pw"])
            #expect(model.screen == .signIn && model.notice == strings.passwordChanged)
            await model.submit([Key.password: "Rep1aced-pw"])
            expectSignedIn(model, as: "ada")
        }
    }

    /// An administrator's user in a pool that requires a first name and an authenticator app:
    /// the new password with the required attribute, then the app's set-up, then signed in.
    @Test func aTemporaryPasswordAndARequiredAuthenticatorAppAgainstALiveServer() async throws {
        try await UIServer.with { live in
            let pool = try await live.makePool(schema: [
                SchemaAttributeType(name: "given_name", attributeDataType: .string, mutable: true, required: true)
            ])
            _ = try await live.service.pools.setUserPoolMfaConfig(
                SetUserPoolMfaConfigRequest(
                    userPoolId: pool, softwareTokenMfaConfiguration: SoftwareTokenMfaConfigType(enabled: true),
                    mfaConfiguration: .on))
            _ = try await live.service.userAdministration.adminCreateUser(
                AdminCreateUserRequest(
                    userPoolId: pool, username: "bea", temporaryPassword: "Temp0rary1", messageAction: .suppress))
            let client = try await live.makeClient(pool: pool)
            let auth = AuthClient(
                configuration: AuthConfiguration(
                    endpoint: live.endpoint, userPoolId: pool, clientId: client, tokenStore: InMemoryTokenStore()))
            let model = AuthenticatorModel(auth: auth, totpIssuer: "Health")
            await model.start()

            await model.submit([Key.username: "bea", Key.password: "Temp0rary1"])
            #expect(model.screen == .newPassword(requiredAttributes: ["given_name"]))
            #expect(model.fields.map(\.key) == [Key.newPassword, Key.confirmPassword, "given_name"])
            await model.submit([Key.newPassword: "Chosen-Passw0rd", Key.confirmPassword: "Chosen-Passw0rd", "given_name": "Bea"])

            let secret = try #require(model.totpSecret, "expected the authenticator app's set-up, got \(model.screen)")
            #expect(model.totpSetupURI?.absoluteString.hasPrefix("otpauth://totp/Health:bea?secret=\(secret)") == true)
            let code = TOTP.code(secret: Base32.decode(secret) ?? [], step: TOTP.step(at: Date()))
            await model.submit([Key.code: code])
            expectSignedIn(model, as: "bea")
            #expect(model.user?.attributes["given_name"] == "Bea")
        }
    }
}

/// A Cognate server on a free port with a fresh SQLite database, for one test (as the SDK's
/// own tests start one).
struct UIServer: Sendable {
    let server: CognateServer
    let endpoint: URL

    var service: IdentityService { server.service }

    static func with(_ body: @MainActor (UIServer) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cognate-ui-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var logger = Logger(label: "cognate-ui-test")
        logger.logLevel = .critical
        for attempt in 1...5 {
            var configuration = ServerConfiguration()
            configuration.port = try FreePort.pick()
            configuration.database = directory.appendingPathComponent("cognate.sqlite").path
            let server: CognateServer
            do {
                server = try await ServerAssembly.prepare(configuration, logger: logger)
            } catch is CognateServer.PortInUse where attempt < 5 {
                continue
            }
            let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
            let running = Task {
                defer { portContinuation.finish() }
                try await server.run { port in portContinuation.yield(port) }
            }
            var listening: Int?
            for await port in ports {
                listening = port
                break
            }
            guard let port = listening else {
                let failure = await running.result
                await server.close()
                if case .failure(let error) = failure, error is CognateServer.PortInUse, attempt < 5 { continue }
                try failure.get()
                Issue.record("the server stopped before it listened")
                return
            }
            let live = UIServer(server: server, endpoint: URL(string: "http://127.0.0.1:\(port)/")!)
            var failure: (any Error)?
            do { try await body(live) } catch { failure = error }
            running.cancel()
            _ = await running.result
            await server.close()
            if let failure { throw failure }
            return
        }
        Issue.record("no free port for the server")
    }

    /// A pool whose sign-up codes go by email (the dev outbox keeps them).
    func makePool(schema: [SchemaAttributeType] = []) async throws -> String {
        let pool = try await service.pools.createUserPool(
            CreateUserPoolRequest(
                poolName: "ui-\(UUID().uuidString.prefix(8))",
                policies: UserPoolPolicyType(
                    passwordPolicy: PasswordPolicyType(
                        minimumLength: 8, requireUppercase: true, requireLowercase: true, requireNumbers: true,
                        requireSymbols: false)),
                autoVerifiedAttributes: [.email], schema: schema.isEmpty ? nil : schema))
        return try #require(pool.userPool?.id)
    }

    /// An app client allowing SRP, password and refresh sign-ins.
    func makeClient(pool: String) async throws -> String {
        let client = try await service.clients.createUserPoolClient(
            CreateUserPoolClientRequest(
                userPoolId: pool, clientName: "ui",
                explicitAuthFlows: [.allowUserSrpAuth, .allowUserPasswordAuth, .allowRefreshTokenAuth])
        ).userPoolClient
        return try #require(client?.clientId)
    }

    /// The code of the newest message sent to `destination`.
    func lastCode(to destination: String) async throws -> String {
        let messages = try await server.store.read { try await $0.outboxMessages(poolId: nil, afterId: nil, limit: 10_000) }
        return try #require(messages.last { $0.message.destination == destination && $0.message.code != nil }?.message.code)
    }
}
