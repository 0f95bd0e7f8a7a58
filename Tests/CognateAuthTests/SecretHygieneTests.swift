import CognateAuth
import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// Secrets stay where they are needed: out of descriptions and dumps, out of a registration
/// flow's memory once used, and a refresh of one profile is never handed to another.
struct SecretHygieneTests {
    @Test func descriptionsAndDumpsCarryNoSecrets() async throws {
        try await LiveServer.with { live in
            let pool = try await ProfileIsolationTests.devicePool(live)
            let app = try await live.makeClient(pool: pool, secret: true)
            let store = InMemoryTokenStore()
            let configuration = live.configuration(pool: pool, client: app, store: store)
            let client = AuthClient(configuration: configuration)
            try await live.confirmedUser(client, username: "dumped", email: uniqueEmail("dumped"))
            _ = try await client.signIn(username: "dumped", password: "Passw0rd1")
            try await client.registerPIN("24680")
            let record = try #require(await store.load(profile: "default"))
            let tokens = try #require(record.tokens)
            let device = try #require(record.device)

            // The device secret and the PIN key, as the store keeps them.
            let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
            let stored = try #require(json["device"] as? [String: Any])
            let pin = try #require(stored["pin"] as? [String: Any])
            let secrets = [
                tokens.accessToken, tokens.refreshToken, tokens.idToken, try #require(app.secret),
                try #require(stored["password"] as? String), try #require(pin["key"] as? String),
            ]
            let values: [Any] = [record, tokens, device, configuration]
            for value in values {
                var dumped = ""
                dump(value, to: &dumped)
                for text in [String(describing: value), String(reflecting: value), dumped, "\(value)"] {
                    for secret in secrets { #expect(!text.contains(secret), "\(type(of: value)) shows a secret") }
                }
            }
            #expect(String(describing: tokens).contains("dumped"))   // still useful for diagnosis
        }
    }

    @Test func theRegistrationFlowForgetsThePasswordOnceUsed() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(emailSignIn: true, schema: RegistrationFlowTests.consentSchema)
            let app = try await live.makeClient(pool: pool)
            let flow = RegistrationFlowTests.flow(live.authClient(pool: pool, client: app))
            let email = uniqueEmail("forget")
            _ = try await flow.signUp(username: email, password: "Passw0rd1")
            // Kept for the sign-in that follows the code…
            #expect(Self.heldPassword(of: flow) == "Passw0rd1")
            #expect(try await flow.confirm(code: try await live.lastCode(to: email))
                == .needsProfile(missing: RegistrationFlowTests.profileFields))
            // …and gone once it signed in, although the flow is not finished.
            #expect(Self.heldPassword(of: flow) == nil)
            #expect(try await flow.completeProfile(RegistrationFlowTests.profile) == .complete)
            #expect(Self.heldPassword(of: flow) == nil)
        }
    }

    @Test func aRefreshInFlightIsNotSharedWithAnotherProfile() async throws {
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
            // Every call refreshes (the margin exceeds the tokens' life), and refreshes are slow.
            let picker = AuthClient(configuration: live.configuration(
                pool: pool, client: app, store: store, profile: "alice", refreshMargin: 86_400,
                transport: CountingTransport(refreshDelay: .seconds(2))))
            let aliceRefresh = Task { try await picker.currentSession() }
            try await Task.sleep(for: .milliseconds(300))
            // While Alice's refresh is in flight, the picker moves to Bob and needs his session.
            guard case .signedIn = try await picker.signIn(withPIN: "97531", profile: "bob") else {
                Issue.record("Bob signs in with his PIN")
                return
            }
            #expect(try await picker.currentSession().user.username == "bob")
            let alice = try await aliceRefresh.value
            #expect(alice.user.username == "alice")
            // Alice's refreshed tokens went to her profile, not Bob's.
            #expect(await store.load(profile: "alice")?.tokens == alice)
            #expect(await store.load(profile: "bob")?.tokens?.user.username == "bob")
        }
    }

    /// The password a flow holds in memory (read by reflection, as a memory dump would).
    static func heldPassword(of flow: RegistrationFlow) -> String? {
        Mirror(reflecting: flow).children.first { $0.label == "password" }.flatMap { $0.value as? String }
    }
}
