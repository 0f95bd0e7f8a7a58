import CognateAuth
import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// Sign-out and deregistration say `.complete` only when the server did what was asked: a
/// store that cannot be read is neither cleared nor reported as signed out, a refused refresh
/// is not a forgotten device, and a failed ForgetDevice still revokes the refresh token.
struct SignOutReportTests {
    @Test func anUnreadableStoreIsNeitherClearedNorReportedSignedOut() async throws {
        try await LiveServer.with { live in
            let pool = try await ProfileIsolationTests.devicePool(live)
            let app = try await live.makeClient(pool: pool)
            let store = PromptingTokenStore()
            let client = live.authClient(pool: pool, client: app, store: store)
            try await live.confirmedUser(client, username: "ada", email: uniqueEmail("ada"))
            #expect(try await client.signIn(username: "ada", password: "Passw0rd1").isSignedIn)
            try await client.registerPIN("24680")
            let stored = try #require(await store.inner.load(profile: "default"))

            // The user cancels the biometry prompt: reads fail, removing would not.
            await store.cancelPrompts()
            for deregistering in [false, true] {
                await expectAuthError({
                    if deregistering { _ = try await client.deregister() } else { _ = try await client.signOut() }
                }) { if case .storage = $0 { true } else { false } }
                // Nothing was removed unread: tokens, device and PIN are all still there…
                #expect(await store.inner.load(profile: "default") == stored)
            }
            // …and the session still lives on the server (it was never told).
            _ = try await live.service.signIn.initiateAuth(InitiateAuthRequest(
                authFlow: .refreshTokenAuth, authParameters: ["REFRESH_TOKEN": try #require(stored.tokens).refreshToken],
                clientId: app.id))

            // Once the store can be read, the sign-out happens and keeps the device and PIN.
            await store.allowPrompts()
            try await client.signOut().expectComplete()
            #expect(try await client.currentDevice()?.hasPIN == true)
        }
    }

    @Test func aRefusedRefreshIsNotAForgottenDevice() async throws {
        try await LiveServer.with { live in
            let pool = try await ProfileIsolationTests.devicePool(live)
            let app = try await live.makeClient(pool: pool)
            let client = live.authClient(pool: pool, client: app)
            try await live.confirmedUser(client, username: "grace", email: uniqueEmail("grace"))
            for globally in [true, false] {
                #expect(try await client.signIn(username: "grace", password: "Passw0rd1").isSignedIn)
                let device = try #require(try await client.currentDevice())
                // An administrator signs the user out: the access token and the refresh token die.
                _ = try await live.service.userAdministration.adminUserGlobalSignOut(
                    AdminUserGlobalSignOutRequest(userPoolId: pool, username: "grace"))
                let result = globally ? try await client.signOut(globally: true) : try await client.deregister()
                guard case .localOnly(.sessionExpired) = result else {
                    Issue.record("expected localOnly(sessionExpired), got \(result)")
                    return
                }
                // Neither the global sign-out nor the ForgetDevice happened: the device lives on.
                let kept = try await live.server.store.read { try await $0.device(poolId: pool, key: device.deviceKey) }
                #expect(kept != nil)
            }
        }
    }

    @Test func aFailedForgetDeviceStillRevokesTheRefreshToken() async throws {
        try await LiveServer.with { live in
            let pool = try await ProfileIsolationTests.devicePool(live)
            let app = try await live.makeClient(pool: pool)
            let store = InMemoryTokenStore()
            let client = live.authClient(pool: pool, client: app, store: store, transport: FailingTransport(failing: ["ForgetDevice"]))
            try await live.confirmedUser(client, username: "hopper", email: uniqueEmail("hopper"))
            #expect(try await client.signIn(username: "hopper", password: "Passw0rd1").isSignedIn)
            let refreshToken = try await client.currentSession().refreshToken
            let result = try await client.deregister()
            guard case .localOnly(.network) = result else {
                Issue.record("expected localOnly(network), got \(result)")
                return
            }
            #expect(await store.load(profile: "default") == nil)
            await #expect(throws: CognitoError.revokedRefreshToken) {
                _ = try await live.service.signIn.initiateAuth(InitiateAuthRequest(
                    authFlow: .refreshTokenAuth, authParameters: ["REFRESH_TOKEN": refreshToken], clientId: app.id))
            }
        }
    }
}

/// A real in-memory store whose reads can fail as a Keychain item with biometric access
/// control does after the user cancels the prompt: reading needs the prompt, saving and
/// removing do not.
actor PromptingTokenStore: TokenStore {
    struct PromptCancelled: Error {}

    let inner = InMemoryTokenStore()
    private var cancelled = false

    func cancelPrompts() { cancelled = true }
    func allowPrompts() { cancelled = false }

    func profiles() async throws -> [String] { await inner.profiles() }

    func load(profile: String) async throws -> ProfileRecord? {
        if cancelled { throw PromptCancelled() }
        return await inner.load(profile: profile)
    }

    func save(_ record: ProfileRecord, profile: String) async throws { await inner.save(record, profile: profile) }
    func remove(profile: String) async throws { await inner.remove(profile: profile) }
}

/// Passes requests to the live server, except the named operations, which fail as an
/// unreachable server would.
struct FailingTransport: HTTPTransport {
    let failing: Set<String>
    let inner: any HTTPTransport = URLSessionTransport()

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        if failing.contains(request.operationName ?? "") { throw URLError(.cannotConnectToHost) }
        return try await inner.send(request)
    }
}
