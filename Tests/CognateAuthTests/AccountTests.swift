import CognateAuth
import CognateCore
import CognateProtocol
import Foundation
import Testing

/// The signed-in user's account: passwords, attributes, sign-out and deletion.
struct AccountTests {
    @Test func forgotAndChangePassword() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool, secret: true))
            let email = uniqueEmail()
            try await live.confirmedUser(client, username: "fp", email: email)

            let delivery = try await client.forgotPassword(username: "fp")
            #expect(delivery?.attributeName == "email")
            let code = try await live.lastCode(to: email)
            await expectAuthError({ try await client.confirmForgotPassword(username: "fp", code: code, newPassword: "short") }) {
                if case .invalidPassword = $0 { true } else if case .invalidParameter = $0 { true } else { false }
            }
            try await client.confirmForgotPassword(username: "fp", code: code, newPassword: "Rec0veredPw")
            #expect(try await client.signIn(username: "fp", password: "Rec0veredPw").isSignedIn)

            await expectAuthError({ try await client.changePassword(old: "Wrong0ne1", new: "Changed0Pw") }) {
                if case .notAuthorized = $0 { true } else { false }
            }
            #expect(await client.state() != .sessionExpired)  // a wrong old password is not an expiry
            try await client.changePassword(old: "Rec0veredPw", new: "Changed0Pw")
            #expect(try await client.signIn(username: "fp", password: "Changed0Pw").isSignedIn)
        }
    }

    @Test func attributesUpdateAndVerification() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(schema: [SchemaAttributeType(name: "accepted_tos", attributeDataType: .string)])
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            let email = uniqueEmail()
            try await live.confirmedUser(client, username: "attr", email: email)
            #expect(try await client.signIn(username: "attr", password: "Passw0rd1").isSignedIn)

            var attributes = try await client.fetchUserAttributes()
            #expect(attributes["email"] == email && attributes["email_verified"] == "true")

            let pending = try await client.updateUserAttributes(["given_name": "Ada", "custom:accepted_tos": "2026-01-01T00:00:00Z"])
            #expect(pending.isEmpty)
            attributes = try await client.fetchUserAttributes()
            #expect(attributes["given_name"] == "Ada" && attributes["custom:accepted_tos"] == "2026-01-01T00:00:00Z")

            let newEmail = uniqueEmail("moved")
            let deliveries = try await client.updateUserAttributes(["email": newEmail])
            #expect(deliveries.map(\.attributeName) == ["email"])
            let code = try await live.lastCode(to: newEmail)
            await expectAuthError({ try await client.confirmAttribute("email", code: code == "000000" ? "111111" : "000000") }) {
                if case .codeMismatch = $0 { true } else { false }
            }
            try await client.confirmAttribute("email", code: code)
            attributes = try await client.fetchUserAttributes()
            #expect(attributes["email"] == newEmail && attributes["email_verified"] == "true")

            await expectAuthError({ _ = try await client.updateUserAttributes(["custom:nope": "x"]) }) {
                if case .invalidParameter = $0 { true } else { false }
            }
        }
    }

    @Test func signOutRevokesTheRefreshToken() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let app = try await live.makeClient(pool: pool)
            let client = live.authClient(pool: pool, client: app)
            try await live.confirmedUser(client, username: "so", email: uniqueEmail())
            #expect(try await client.signIn(username: "so", password: "Passw0rd1").isSignedIn)
            let tokens = try await client.currentSession()
            try await client.signOut().expectComplete()
            #expect(await client.state() == .signedOut)
            await expectAuthError({ _ = try await client.currentSession() }) {
                if case .notSignedIn = $0 { true } else { false }
            }
            await #expect(throws: CognitoError.self) {
                _ = try await live.service.signIn.initiateAuth(InitiateAuthRequest(
                    authFlow: .refreshTokenAuth, authParameters: ["REFRESH_TOKEN": tokens.refreshToken], clientId: app.id))
            }
        }
    }

    @Test func signOutClearsLocallyWhenTheServerIsUnreachable() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let app = try await live.makeClient(pool: pool)
            let store = InMemoryTokenStore()
            let online = live.authClient(pool: pool, client: app, store: store)
            try await live.confirmedUser(online, username: "off", email: uniqueEmail())
            #expect(try await online.signIn(username: "off", password: "Passw0rd1").isSignedIn)

            let offline = live.authClient(pool: pool, client: app, store: store, transport: UnreachableTransport())
            for globally in [false, true] {
                if globally { #expect(try await online.signIn(username: "off", password: "Passw0rd1").isSignedIn) }
                let result = try await offline.signOut(globally: globally)
                guard case .localOnly(.network) = result else {
                    Issue.record("expected a local-only sign-out, got \(result)")
                    return
                }
                #expect(!result.signedOutOnServer)
                #expect(await store.load(profile: "default") == nil)
                #expect(await offline.state() == .signedOut)
            }
        }
    }

    @Test func deleteUserRemovesTheAccount() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            try await live.confirmedUser(client, username: "del", email: uniqueEmail())
            #expect(try await client.signIn(username: "del", password: "Passw0rd1").isSignedIn)
            try await client.deleteUser()
            #expect(await client.state() == .signedOut)
            await expectAuthError({ _ = try await client.signIn(username: "del", password: "Passw0rd1") }) {
                if case .userNotFound = $0 { true } else { false }
            }
        }
    }
}
