import CognateAuth  // alone: CognitoErrorCode must come with it
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// AuthError as Apple's conventions expect it, cancellation, and how a refused access token
/// is told from a refused request.
struct ErrorTests {
    @Test func localizedDescriptionIsTheMessage() {
        let exists: any Error = AuthError(code: CognitoErrorCode.usernameExists, message: "User already exists")
        #expect(exists.localizedDescription == "User already exists")
        #expect((AuthError.notSignedIn as any Error).localizedDescription == "No user is signed in.")
        #expect(AuthError.invalidState("confirm does not fit").errorDescription == "confirm does not fit")
    }

    @Test func equalityIsTheSameErrorWithTheSameMessage() {
        #expect(AuthError(code: .usernameExists, message: "User already exists") == .usernameExists("User already exists"))
        #expect(AuthError.usernameExists("User already exists") != .usernameExists("another message"))
        #expect(AuthError.usernameExists("m") != .aliasExists("m"))
        #expect(AuthError(type: "SerializationException", message: "bad") == .unexpected(code: "SerializationException", message: "bad"))
        #expect(AuthError.service(.groupExists, "m") == AuthError(code: .groupExists, message: "m"))
        #expect(AuthError.network(URLError(.timedOut)) == .network(URLError(.timedOut)))
        #expect(AuthError.network(URLError(.timedOut)) != .network(URLError(.cannotConnectToHost)))
        #expect(AuthError.network(URLError(.timedOut)) != .storage(URLError(.timedOut)))
        #expect(AuthError.notSignedIn == .notSignedIn)
        #expect(AuthError.sessionExpired("Refresh Token has been revoked") != .notSignedIn)
        #expect(AuthError.notAuthorized("Incorrect username or password.").cognitoCode == CognitoErrorCode.notAuthorized)
    }

    /// A cancelled task ends with CancellationError, never with a network error — whether the
    /// transport reports it as URLSession does or as Swift does.
    @Test(arguments: [URLError(.cancelled) as any Error & Sendable, CancellationError()])
    func cancellationIsNotANetworkError(transportError: any Error & Sendable) async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let app = try await live.makeClient(pool: pool)
            let transport = HoldingTransport(cancellationError: transportError)
            var arrivals = transport.arrivals.makeAsyncIterator()
            let held = live.authClient(pool: pool, client: app, transport: transport)
            let signUp = Task { try await held.signUp(username: "cancelled", password: "Passw0rd1") }
            #expect(await arrivals.next() == "SignUp")
            signUp.cancel()
            await #expect(throws: CancellationError.self) { try await signUp.value }

            // Sign-in: cancelled while its first request is held.
            let signIn = Task { try await held.signIn(username: "cancelled", password: "Passw0rd1") }
            #expect(await arrivals.next() == "InitiateAuth")
            signIn.cancel()
            await #expect(throws: CancellationError.self) { try await signIn.value }
            #expect(await held.state() == .signedOut)

            // A task cancelled before it starts sends nothing.
            let counting = CountingTransport()
            let client = live.authClient(pool: pool, client: app, transport: counting)
            let early = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.signUp(username: "early", password: "Passw0rd1")
            }
            await #expect(throws: CancellationError.self) { try await early.value }
            #expect(counting.count("SignUp") == 0)
        }
    }

    /// A wrong previous password is a refusal of the request: thrown as is, sent once, no
    /// refresh — the server is asked whether the token is fine (GetUser), not the message read.
    @Test func wrongPreviousPasswordIsNotTakenForADeadToken() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let counting = CountingTransport()
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool), transport: counting)
            try await live.confirmedUser(client, username: "cp", email: uniqueEmail())
            #expect(try await client.signIn(username: "cp", password: "Passw0rd1").isSignedIn)
            await expectAuthError({ try await client.changePassword(old: "Wrong0ne1", new: "Changed0Pw") }) {
                $0 == .notAuthorized("Incorrect username or password.")
            }
            #expect(counting.count("ChangePassword") == 1)
            #expect(counting.count("GetUser") == 1)
            #expect(counting.refreshCount == 0)
        }
    }

    /// An access token the server refuses while the refresh token lives: refreshed once, the
    /// call retried and answered.
    @Test func refusedAccessTokenIsRefreshedAndTheCallRetried() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let app = try await live.makeClient(pool: pool)
            let store = InMemoryTokenStore()
            let counting = CountingTransport()
            let client = live.authClient(pool: pool, client: app, store: store, transport: counting)
            let email = uniqueEmail()
            try await live.confirmedUser(client, username: "rt", email: email)
            #expect(try await client.signIn(username: "rt", password: "Passw0rd1").isSignedIn)
            // The stored access token is replaced by one the server will not accept.
            var record = try #require(await store.load(profile: "default"))
            record.tokens?.accessToken = "eyJraWQiOiJub25lIn0.eyJzdWIiOiJub2JvZHkifQ.c2lnbmF0dXJl"
            await store.save(record, profile: "default")

            #expect(try await client.fetchUserAttributes()["email"] == email)
            #expect(counting.refreshCount == 1)
            #expect(counting.count("GetUser") == 3)  // refused, the probe (refused), the retry
            #expect(try await client.currentSession().accessToken != record.tokens?.accessToken)
        }
    }
}
