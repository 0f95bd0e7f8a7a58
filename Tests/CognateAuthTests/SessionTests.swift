import CognateAuth
import CognateCore
import CognateProtocol
import Foundation
import Testing

/// Sessions: refresh sharing, unambiguous expiry, and the state stream.
struct SessionTests {
    /// Access tokens live 5 minutes and the margin is 10, so every `currentSession()` needs a
    /// refresh: ten concurrent callers must share one REFRESH_TOKEN_AUTH request.
    @Test func concurrentCallersShareOneRefresh() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let app = try await live.makeClient(pool: pool, secret: true, shortLivedTokens: true)
            let counting = CountingTransport(refreshDelay: .milliseconds(500))
            let client = live.authClient(pool: pool, client: app, refreshMargin: 600, transport: counting)
            try await live.confirmedUser(client, username: "conc", email: uniqueEmail())
            let signedIn = try await client.signIn(username: "conc", password: "Passw0rd1")
            guard case .signedIn = signedIn else { throw AuthError.invalidState("not signed in") }
            let before = try await client.currentSessionWithoutRefresh()

            let sessions = try await withThrowingTaskGroup(of: AuthTokens.self) { group in
                for _ in 0..<10 { group.addTask { try await client.currentSession() } }
                return try await group.reduce(into: [AuthTokens]()) { $0.append($1) }
            }
            #expect(counting.refreshCount == 1)
            #expect(sessions.count == 10)
            #expect(Set(sessions.map(\.accessToken)).count == 1)
            #expect(sessions[0].accessToken != before.accessToken)
            #expect(sessions[0].refreshToken == before.refreshToken)

            // The next call refreshes again (the new token is inside the margin too).
            _ = try await client.currentSession()
            #expect(counting.refreshCount == 2)
        }
    }

    @Test func sessionExpiredAfterGlobalSignOutElsewhere() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let app = try await live.makeClient(pool: pool, shortLivedTokens: true)
            let phone = live.authClient(pool: pool, client: app, refreshMargin: 600)
            let laptop = live.authClient(pool: pool, client: app)
            try await live.confirmedUser(phone, username: "gso", email: uniqueEmail())
            guard case .signedIn(let user) = try await phone.signIn(username: "gso", password: "Passw0rd1") else {
                throw AuthError.invalidState("not signed in")
            }
            let states = await phone.stateStream()
            var iterator = states.makeAsyncIterator()
            #expect(await iterator.next() == .signedIn(user))

            // A refresh works while the session lives; no state change.
            _ = try await phone.currentSession()

            // Another device signs the user out everywhere.
            #expect(try await laptop.signIn(username: "gso", password: "Passw0rd1").isSignedIn)
            try await laptop.signOut(globally: true).expectComplete()

            await expectAuthError({ _ = try await phone.currentSession() }) {
                if case .sessionExpired = $0 { true } else { false }
            }
            #expect(await iterator.next() == .sessionExpired)
            #expect(await phone.state() == .sessionExpired)
            await expectAuthError({ _ = try await phone.currentSession() }) {
                if case .notSignedIn = $0 { true } else { false }
            }
            // Signing in again replaces the expiry.
            #expect(try await phone.signIn(username: "gso", password: "Passw0rd1").isSignedIn)
            #expect(await iterator.next() == .signedIn(user))
        }
    }

    @Test func adminGlobalSignOutEndsTheSessionOnTokenCalls() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            try await live.confirmedUser(client, username: "adm", email: uniqueEmail())
            #expect(try await client.signIn(username: "adm", password: "Passw0rd1").isSignedIn)
            _ = try await live.service.userAdministration.adminUserGlobalSignOut(AdminUserGlobalSignOutRequest(userPoolId: pool, username: "adm"))
            // The access token is still fresh locally; the server rejects it, the refresh is
            // refused, and the call ends as sessionExpired.
            await expectAuthError({ _ = try await client.fetchUserAttributes() }) {
                if case .sessionExpired = $0 { true } else { false }
            }
            #expect(await client.state() == .sessionExpired)
        }
    }

    @Test func networkFailuresNeverExpireTheSession() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let app = try await live.makeClient(pool: pool, shortLivedTokens: true)
            let store = InMemoryTokenStore()
            let online = live.authClient(pool: pool, client: app, store: store)
            try await live.confirmedUser(online, username: "net", email: uniqueEmail())
            guard case .signedIn(let user) = try await online.signIn(username: "net", password: "Passw0rd1") else {
                throw AuthError.invalidState("not signed in")
            }
            let offline = live.authClient(pool: pool, client: app, store: store, refreshMargin: 600, transport: UnreachableTransport())
            await expectAuthError({ _ = try await offline.currentSession() }) {
                if case .network = $0 { true } else { false }
            }
            #expect(await offline.state() == .signedIn(user))
            #expect(await store.load(profile: "default")?.tokens != nil)
        }
    }

    @Test func everySubscriberGetsTheCurrentStateThenChanges() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            try await live.confirmedUser(client, username: "sub", email: uniqueEmail())
            var first = await client.stateStream().makeAsyncIterator()
            #expect(await first.next() == .signedOut)
            guard case .signedIn(let user) = try await client.signIn(username: "sub", password: "Passw0rd1") else {
                throw AuthError.invalidState("not signed in")
            }
            var second = await client.stateStream().makeAsyncIterator()
            #expect(await second.next() == .signedIn(user))
            #expect(await first.next() == .signedIn(user))
            try await client.signOut().expectComplete()
            #expect(await first.next() == .signedOut)
            #expect(await second.next() == .signedOut)
        }
    }
}

extension AuthClient {
    /// The stored tokens as they are (tests compare before and after a refresh).
    func currentSessionWithoutRefresh() async throws -> AuthTokens {
        guard let tokens = try await configuration.tokenStore.load(profile: profile)?.tokens else {
            throw AuthError.notSignedIn
        }
        return tokens
    }
}

extension SignOutResult {
    func expectComplete(sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        if case .localOnly(let error) = self { Issue.record("server sign-out failed: \(error)", sourceLocation: sourceLocation) }
    }
}
