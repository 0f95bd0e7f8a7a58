import CognateAuth
import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// One profile never holds two people's data: a user who signs in on a profile holding another
/// user's tokens, device or PIN is never offered that user's device, and the other user's
/// session is revoked and their data wiped before anything of the new user is stored.
struct ProfileIsolationTests {
    @Test func anotherUsersSignInIsNeverOfferedTheStoredDevice() async throws {
        try await LiveServer.with { live in
            let pool = try await Self.devicePool(live)
            let app = try await live.makeClient(pool: pool)
            let store = InMemoryTokenStore()
            let transport = CountingTransport()
            let client = live.authClient(pool: pool, client: app, store: store, transport: transport)
            try await live.confirmedUser(client, username: "alice", email: uniqueEmail("alice"))
            try await live.confirmedUser(client, username: "bob", email: uniqueEmail("bob"))

            // Alice signs in, adds a PIN and signs out: her device and PIN stay in the profile.
            #expect(try await client.signIn(username: "alice", password: "Passw0rd1").isSignedIn)
            try await client.registerPIN("24680")
            let aliceDevice = try #require(try await client.currentDevice())
            try await client.signOut()
            #expect(try await client.currentDevice() == aliceDevice)

            // Alice signs in again: her device is offered (and proved), not a new one.
            #expect(try await client.signIn(username: "alice", password: "Passw0rd1").isSignedIn)
            #expect(try await client.currentDevice()?.deviceKey == aliceDevice.deviceKey)
            try await client.signOut()
            let before = Self.requestCounts(transport)

            // Bob signs in on the same profile: Alice's device key is not sent for him (SRP and
            // the plain password flow alike), and her device and PIN do not end up his.
            for flow in [SignInFlow.srp, .password] {
                guard case .signedIn(let bob) = try await client.signIn(username: "bob", password: "Passw0rd1", flow: flow) else {
                    Issue.record("Bob signs in")
                    return
                }
                #expect(bob.username == "bob")
                let device = try #require(try await client.currentDevice())
                #expect(device.deviceKey != aliceDevice.deviceKey)
                #expect(!device.hasPIN)
                #expect(try await client.pinProfiles().isEmpty)
                try await client.signOut()
            }
            #expect(!Self.sentDeviceKeys(transport, after: before).contains(aliceDevice.deviceKey))
            #expect(Self.sentDeviceKeys(transport, after: (0, 0)).contains(aliceDevice.deviceKey))  // for Alice, it was
        }
    }

    @Test func aSecondUserRevokesTheFirstUsersSessionAndNothingIsMerged() async throws {
        try await LiveServer.with { live in
            let pool = try await Self.devicePool(live)
            let app = try await live.makeClient(pool: pool)
            let store = InMemoryTokenStore()
            let shared = live.authClient(pool: pool, client: app, store: store, profile: "default")
            let bobsOwn = live.authClient(pool: pool, client: app, store: store, profile: "bob")
            try await live.confirmedUser(shared, username: "alice", email: uniqueEmail("alice"))
            try await live.confirmedUser(shared, username: "bob", email: uniqueEmail("bob"))

            // Bob has his own profile; Alice is signed in on the shared one.
            #expect(try await bobsOwn.signIn(username: "bob", password: "Passw0rd1").isSignedIn)
            #expect(try await shared.signIn(username: "alice", password: "Passw0rd1").isSignedIn)
            let alice = try await shared.currentSession()
            let aliceDevice = try #require(try await shared.currentDevice())

            // Bob signs in on the shared profile (Alice never signed out there).
            guard case .signedIn(let bob) = try await shared.signIn(username: "bob", password: "Passw0rd1") else {
                Issue.record("Bob signs in")
                return
            }
            // Alice's session was ended on the server, not just dropped here.
            await #expect(throws: CognitoError.revokedRefreshToken) {
                _ = try await live.service.signIn.initiateAuth(InitiateAuthRequest(
                    authFlow: .refreshTokenAuth, authParameters: ["REFRESH_TOKEN": alice.refreshToken], clientId: app.id))
            }
            // Bob continues in his own profile, which holds nothing of Alice's.
            #expect(await shared.profile == "bob")
            #expect(await store.profiles() == ["bob"])
            let record = try #require(await store.load(profile: "bob"))
            #expect(record.tokens?.user.userId == bob.userId)
            #expect(record.device != nil && record.device?.deviceKey != aliceDevice.deviceKey)
            #expect(try await bobsOwn.currentSession().user.username == "bob")
        }
    }

    /// How many InitiateAuth and RespondToAuthChallenge requests were sent so far.
    static func requestCounts(_ transport: CountingTransport) -> (Int, Int) {
        (transport.count("InitiateAuth"), transport.count("RespondToAuthChallenge"))
    }

    /// Every DEVICE_KEY the client sent in sign-in requests after `counts` of them.
    static func sentDeviceKeys(_ transport: CountingTransport, after counts: (Int, Int)) -> [String] {
        let initiated = transport.sentBodies("InitiateAuth").dropFirst(counts.0).compactMap { $0["AuthParameters"] as? [String: String] }
        let answered = transport.sentBodies("RespondToAuthChallenge").dropFirst(counts.1)
            .compactMap { $0["ChallengeResponses"] as? [String: String] }
        return (initiated + answered).compactMap { $0["DEVICE_KEY"] }
    }

    /// A pool (sign-in by username) that tracks devices and offers PIN sign-in.
    static func devicePool(_ live: LiveServer) async throws -> String {
        let pool = try await live.makePool(
            devices: DeviceConfigurationType(challengeRequiredOnNewDevice: true, deviceOnlyRememberedOnUserPrompt: false))
        _ = try await live.service.pools.setUserPoolPinPolicy(SetUserPoolPinPolicyRequest(userPoolId: pool, pinPolicy: PINTests.policy))
        return pool
    }
}
