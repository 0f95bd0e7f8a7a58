import CognateAuth
import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// PIN sign-in through the SDK against a live server: the policy checked on the device, the
/// PIN journey across an app relaunch (a file store), wrong PINs, changing the PIN, several
/// profiles on one device, and deregistering one of them.
struct PINTests {
    static let policy = PinPolicy(minimumLength: 5, maximumLength: 6, maximumSimilarDigits: 2, blockList: ["13579"],
                                  maximumAttempts: 3)

    @Test func thePolicyIsCheckedOnTheDeviceWithEveryRuleBroken() {
        #expect(Self.policy.violations(of: "2468") == [.tooShort(minimum: 5)])
        #expect(Self.policy.violations(of: "12345") == [.sequence])
        #expect(Self.policy.violations(of: "98765") == [.sequence])
        #expect(Self.policy.violations(of: "11123") == [.tooManySimilarDigits(maximum: 2)])
        #expect(Self.policy.violations(of: "13579") == [.blockListed])
        #expect(Self.policy.violations(of: "1111111") == [.tooLong(maximum: 6), .tooManySimilarDigits(maximum: 2)])
        #expect(Self.policy.violations(of: "12a45") == [.notDigits])
        #expect(Self.policy.violations(of: "١٢٣٤٥") == [.notDigits])      // digits, but not ASCII ones
        #expect(Self.policy.violations(of: "24680").isEmpty)
    }

    @Test func aPINSignsInAfterARelaunchAndChanges() async throws {
        try await LiveServer.with { live in
            let (pool, app) = try await Self.pinPool(live)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pin-\(UUID().uuidString)")
            let store = FileTokenStore(directory: directory)
            let client = live.authClient(pool: pool, client: app, store: store)
            let email = uniqueEmail("pin")
            try await live.confirmedUser(client, username: email, email: email)
            _ = try await client.signIn(username: email, password: "Passw0rd1")
            #expect(try await client.pinPolicy() == Self.policy)
            await #expect(throws: AuthError.pinPolicyViolation([.sequence])) { try await client.registerPIN("12345") }
            try await client.registerPIN("24680")
            #expect(try await client.currentDevice()?.hasPIN == true)
            try await client.signOut()

            // The app is relaunched: a new client over the same files signs in with the PIN alone.
            let relaunched = live.authClient(pool: pool, client: app, store: FileTokenStore(directory: directory))
            await #expect(throws: AuthError.incorrectPIN(remainingAttempts: 2)) {
                _ = try await relaunched.signIn(withPIN: "11223")
            }
            guard case .signedIn(let user) = try await relaunched.signIn(withPIN: "24680") else {
                Issue.record("expected signedIn")
                return
            }
            #expect(user.attributes["email"] == email || user.username.isEmpty == false)
            #expect(try await relaunched.fetchUserAttributes()["email"] == email)

            try await relaunched.changePIN(from: "24680", to: "97531")
            try await relaunched.signOut()
            await #expect(throws: AuthError.incorrectPIN(remainingAttempts: 2)) {
                _ = try await relaunched.signIn(withPIN: "24680")
            }
            guard case .signedIn = try await relaunched.signIn(withPIN: "97531") else {
                Issue.record("the new PIN signs in")
                return
            }
        }
    }

    @Test func wrongPINsForgetTheDeviceAndWipeTheProfile() async throws {
        try await LiveServer.with { live in
            let (pool, app) = try await Self.pinPool(live)
            let store = InMemoryTokenStore()
            let client = live.authClient(pool: pool, client: app, store: store)
            let email = uniqueEmail("pin-wrong")
            try await live.confirmedUser(client, username: email, email: email)
            _ = try await client.signIn(username: email, password: "Passw0rd1")
            try await client.registerPIN("24680")
            let device = try #require(try await client.currentDevice())
            try await client.signOut()
            await #expect(throws: AuthError.incorrectPIN(remainingAttempts: 2)) { _ = try await client.signIn(withPIN: "00112") }
            await #expect(throws: AuthError.incorrectPIN(remainingAttempts: 1)) { _ = try await client.signIn(withPIN: "00112") }
            await #expect(throws: AuthError.pinAttemptsExhausted) { _ = try await client.signIn(withPIN: "00112") }
            #expect(await store.load(profile: "default") == nil)
            let forgotten = try await live.server.store.read { try await $0.device(poolId: pool, key: device.deviceKey) }
            #expect(forgotten == nil)
            await #expect(throws: AuthError.pinNotRegistered) { _ = try await client.signIn(withPIN: "24680") }
            #expect(await client.state() == .signedOut)
        }
    }

    @Test func severalProfilesEachHaveTheirOwnDeviceAndPIN() async throws {
        try await LiveServer.with { live in
            let (pool, app) = try await Self.pinPool(live)
            let store = InMemoryTokenStore()
            var names: [String: String] = [:]
            for (profile, pin) in [("alice", "24680"), ("bob", "97531")] {
                let client = live.authClient(pool: pool, client: app, store: store, profile: profile)
                let email = uniqueEmail(profile)
                try await live.confirmedUser(client, username: email, email: email)
                _ = try await client.signIn(username: email, password: "Passw0rd1")
                try await client.registerPIN(pin)
                try await client.signOut()
                names[profile] = email
            }
            let picker = live.authClient(pool: pool, client: app, store: store, profile: "alice")
            #expect(try await picker.pinProfiles().map(\.profile) == ["alice", "bob"])
            // Alice's PIN is not Bob's.
            await #expect(throws: AuthError.incorrectPIN(remainingAttempts: 2)) {
                _ = try await picker.signIn(withPIN: "24680", profile: "bob")
            }
            guard case .signedIn = try await picker.signIn(withPIN: "97531", profile: "bob") else {
                Issue.record("Bob signs in with his PIN")
                return
            }
            #expect(await picker.profile == "bob")
            #expect(try await picker.fetchUserAttributes()["email"] == names["bob"])
            let aliceDevice = try #require(try await store.load(profile: "alice")?.device)

            // Deregistering a signed-in profile ends it on the server too.
            _ = try await picker.signIn(withPIN: "24680", profile: "alice")
            #expect(try await picker.deregister(profile: "alice").signedOutOnServer == true)
            #expect(try await picker.pinProfiles().map(\.profile) == ["bob"])
            let forgotten = try await live.server.store.read { try await $0.device(poolId: pool, key: aliceDevice.deviceKey) }
            #expect(forgotten == nil)
            guard case .signedIn = try await picker.signIn(withPIN: "97531", profile: "bob") else {
                Issue.record("Bob is unaffected")
                return
            }
            // A signed-out profile is wiped here; the app is told the server was not asked.
            try await picker.signOut()
            let result = try await picker.deregister(profile: "bob")
            guard case .localOnly(.notSignedIn) = result else {
                Issue.record("expected localOnly(notSignedIn), got \(result)")
                return
            }
            #expect(try await picker.pinProfiles().isEmpty)
        }
    }

    @Test func aWrongPINForAnotherProfileDoesNotSwitchToIt() async throws {
        try await LiveServer.with { live in
            let pool = try await ProfileIsolationTests.devicePool(live)
            let app = try await live.makeClient(pool: pool)
            let store = InMemoryTokenStore()
            for (profile, pin) in [("alice", "24680"), ("bob", "97531")] {
                let client = live.authClient(pool: pool, client: app, store: store, profile: profile)
                try await live.confirmedUser(client, username: profile, email: uniqueEmail(profile))
                _ = try await client.signIn(username: profile, password: "Passw0rd1")
                try await client.registerPIN(pin)
            }
            // Bob is still signed in; the picker stands on Alice's profile, signed out.
            let picker = live.authClient(pool: pool, client: app, store: store, profile: "alice")
            try await picker.signOut()
            let states = await picker.stateStream()
            var iterator = states.makeAsyncIterator()
            #expect(await iterator.next() == .signedOut)

            await #expect(throws: AuthError.incorrectPIN(remainingAttempts: 2)) {
                _ = try await picker.signIn(withPIN: "24680", profile: "bob")
            }
            // Nothing switched: not the profile, not the state the app shows.
            #expect(await picker.profile == "alice")
            #expect(await picker.state() == .signedOut)
            await expectAuthError({ _ = try await picker.currentSession() }) { $0 == .notSignedIn }

            guard case .signedIn(let bob) = try await picker.signIn(withPIN: "97531", profile: "bob") else {
                Issue.record("Bob signs in with his PIN")
                return
            }
            #expect(await picker.profile == "bob")
            #expect(await iterator.next() == .signedIn(bob))   // the first state after signedOut
        }
    }

    @Test func lockDropsTheTokensAndKeepsThePIN() async throws {
        try await LiveServer.with { live in
            let pool = try await ProfileIsolationTests.devicePool(live)
            let app = try await live.makeClient(pool: pool)
            let store = InMemoryTokenStore()
            let client = live.authClient(pool: pool, client: app, store: store)
            try await live.confirmedUser(client, username: "locker", email: uniqueEmail("locker"))
            _ = try await client.signIn(username: "locker", password: "Passw0rd1")
            try await client.registerPIN("24680")
            let refreshToken = try await client.currentSession().refreshToken

            #expect(try await client.lock().signedOutOnServer)
            #expect(await client.state() == .signedOut)
            #expect(await store.load(profile: "default")?.tokens == nil)
            #expect(try await client.currentDevice()?.hasPIN == true)
            await #expect(throws: CognitoError.revokedRefreshToken) {
                _ = try await live.service.signIn.initiateAuth(InitiateAuthRequest(
                    authFlow: .refreshTokenAuth, authParameters: ["REFRESH_TOKEN": refreshToken], clientId: app.id))
            }
            guard case .signedIn = try await client.signIn(withPIN: "24680") else {
                Issue.record("the PIN unlocks again")
                return
            }
        }
    }

    @Test func aPINThatCannotBeRightSpendsNoAttempt() async throws {
        try await LiveServer.with { live in
            let pool = try await ProfileIsolationTests.devicePool(live)
            let app = try await live.makeClient(pool: pool)
            let client = live.authClient(pool: pool, client: app)
            try await live.confirmedUser(client, username: "typo", email: uniqueEmail("typo"))
            _ = try await client.signIn(username: "typo", password: "Passw0rd1")
            try await client.registerPIN("24680")
            try await client.signOut()
            for malformed in ["", "12a45", " 24680"] {
                await expectAuthError({ _ = try await client.signIn(withPIN: malformed) }) {
                    if case .pinPolicyViolation = $0 { true } else { false }
                }
            }
            // The first real wrong PIN is still the first attempt.
            await #expect(throws: AuthError.incorrectPIN(remainingAttempts: 2)) { _ = try await client.signIn(withPIN: "11223") }
        }
    }

    private static func pinPool(_ live: LiveServer) async throws -> (String, LiveServer.AppClient) {
        let pool = try await live.makePool(
            emailSignIn: true,
            devices: DeviceConfigurationType(challengeRequiredOnNewDevice: true, deviceOnlyRememberedOnUserPrompt: false))
        _ = try await live.service.pools.setUserPoolPinPolicy(SetUserPoolPinPolicyRequest(userPoolId: pool, pinPolicy: policy))
        return (pool, try await live.makeClient(pool: pool))
    }
}
