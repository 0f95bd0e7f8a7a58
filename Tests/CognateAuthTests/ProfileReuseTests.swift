import CognateAuth
import Foundation
import Testing

/// One account, one profile: signing in or registering an account that another profile of the
/// store already holds continues that profile (matched by `sub`).
struct ProfileReuseTests {
    @Test func signingInAgainUnderANewProfileReusesTheAccountsProfile() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let app = try await live.makeClient(pool: pool)
            let store = InMemoryTokenStore()
            let alice = live.authClient(pool: pool, client: app, store: store, profile: "alice")
            let bob = live.authClient(pool: pool, client: app, store: store, profile: "bob")
            try await live.confirmedUser(alice, username: "alice", email: uniqueEmail("alice"))
            try await live.confirmedUser(bob, username: "bob", email: uniqueEmail("bob"))
            #expect(try await alice.signIn(username: "alice", password: "Passw0rd1").isSignedIn)
            #expect(try await bob.signIn(username: "bob", password: "Passw0rd1").isSignedIn)
            // Alice has a code pending in her profile.
            _ = try await alice.updateUserAttributes(["email": uniqueEmail("alice2")])

            // "Add account" on this device, and Alice signs in there again.
            let added = live.authClient(pool: pool, client: app, store: store, profile: "account-3")
            let step = try await added.signIn(username: "alice", password: "Passw0rd1")
            guard case .signedIn(let user) = step else {
                Issue.record("expected signedIn, got \(step)")
                return
            }
            #expect(await added.profile == "alice")
            #expect(await store.profiles() == ["alice", "bob"])
            #expect(await added.state() == .signedIn(user))
            #expect(try await added.pendingCodes().map(\.purpose) == [.attributeVerification(attribute: "email")])
            // The profile's record holds the new session; the first client reads it too.
            #expect(try await alice.currentSession().accessToken == added.currentSession().accessToken)
            #expect(try await bob.currentSession().user.username == "bob")
        }
    }

    @Test func registeringAnAccountAgainReusesItsProfile() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(emailSignIn: true, schema: RegistrationFlowTests.consentSchema)
            let app = try await live.makeClient(pool: pool)
            let store = InMemoryTokenStore()
            let email = uniqueEmail("twice")

            // The first registration stops at the code step in profile "first".
            let first = RegistrationFlowTests.flow(live.authClient(pool: pool, client: app, store: store, profile: "first"))
            _ = try await first.signUp(username: email, password: "Passw0rd1")
            #expect(await store.load(profile: "first")?.registration?.userSub != nil)

            // The user registers again under another profile (the app forgot the first): the
            // same account, so the second flow continues in "first" once its sub is known.
            let secondClient = live.authClient(pool: pool, client: app, store: store, profile: "second")
            let second = RegistrationFlowTests.flow(secondClient)
            #expect(try await second.signUp(username: email, password: "Passw0rd1")
                == .confirmSignUp(username: email, delivery: nil, previousCodeExpired: false))
            #expect(try await second.confirm(code: try await live.lastCode(to: email))
                == .needsProfile(missing: RegistrationFlowTests.profileFields))
            #expect(await secondClient.profile == "first")
            #expect(await store.profiles() == ["first"])
            #expect(await store.load(profile: "first")?.registration?.step == .needsProfile(missing: RegistrationFlowTests.profileFields))
            #expect(try await second.completeProfile(RegistrationFlowTests.profile) == .complete)
        }
    }
}
