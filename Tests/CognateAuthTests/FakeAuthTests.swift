import CognateAuth
import Foundation
import Testing

/// FakeAuth, the in-memory ``AuthProviding`` for an app's previews and tests: the journeys it
/// models, through the protocol as an app holds it, and a clear error for what it does not.
struct FakeAuthTests {
    @Test func signUpConfirmSignInAndSignOutPublishTheirStates() async throws {
        let fake = FakeAuth()
        let auth: any AuthProviding = fake
        var states = await auth.stateStream().makeAsyncIterator()
        #expect(await states.next() == .signedOut)

        let signedUp = try await auth.signUp(username: "ann", password: "Passw0rd!", attributes: ["email": "ann@example.com"])
        #expect(signedUp.nextStep == .confirmSignUp(CodeDelivery(destination: "ann@example.com", medium: .email, attributeName: "email")))
        #expect(try await auth.signIn(username: "ann", password: "Passw0rd!") == .confirmSignUp(username: "ann"))
        await #expect(throws: AuthError.self) { try await auth.confirmSignUp(username: "ann", code: "000000") }
        #expect(try await auth.confirmSignUp(username: "ann", code: fake.code) == .done)
        await #expect(throws: AuthError.self) { try await auth.signIn(username: "ann", password: "wrong") }

        guard case .signedIn(let user) = try await auth.signIn(username: "ann", password: "Passw0rd!") else {
            Issue.record("not signed in")
            return
        }
        #expect(user.username == "ann" && user.attributes["email"] == "ann@example.com")
        #expect(await states.next() == .signedIn(user))
        #expect(try await auth.currentSession().user == user)
        try await auth.signOut()
        #expect(await states.next() == .signedOut)
    }

    @Test func temporaryPasswordsMfaAndPinAreModelled() async throws {
        let auth: any AuthProviding = FakeAuth(accounts: [
            FakeAuth.Account(username: "bo", password: "Temp0rary!", attributes: ["email": "bo@example.com"], temporaryPassword: true,
                             mfa: .email, groups: ["admins"]),
        ])
        guard case .newPasswordRequired = try await auth.signIn(username: "bo", password: "Temp0rary!") else {
            Issue.record("no new password asked for")
            return
        }
        guard case .signedIn(let user) = try await auth.confirmSignIn(newPassword: "Chosen1!") else {
            Issue.record("not signed in")
            return
        }
        #expect(user.groups == ["admins"])
        try await auth.signOut()
        #expect(try await auth.signIn(username: "bo", password: "Chosen1!") == .mfaCode(MFACodeChallenge(kind: .email, destination: "bo@example.com")))
        await #expect(throws: AuthError.self) { try await auth.confirmSignIn(mfaCode: "999999") }
        guard case .signedIn = try await auth.confirmSignIn(mfaCode: "123456") else {
            Issue.record("MFA did not sign in")
            return
        }

        try await auth.registerPIN("27193")
        #expect(try await auth.pinProfiles().map(\.username) == ["bo"])
        try await auth.lock()
        #expect(await auth.state() == .signedOut)
        await #expect(throws: AuthError.self) { try await auth.signIn(withPIN: "11111") }
        guard case .signedIn = try await auth.signIn(withPIN: "27193") else {
            Issue.record("PIN did not sign in")
            return
        }
        await #expect(throws: AuthError.self) { try await auth.awsCredentials() }
    }

    @MainActor
    @Test func theSwiftUIModelRunsOnTheFake() async throws {
        let model = AuthModel(auth: FakeAuth(accounts: [FakeAuth.Account(username: "cy", password: "Passw0rd!")]))
        let observing = Task { await model.observe() }
        defer { observing.cancel() }
        _ = await model.perform { try await $0.signIn(username: "cy", password: "Passw0rd!") }
        await model.waitUntil { $0.user?.username == "cy" }
        _ = await model.perform { try await $0.signIn(username: "cy", password: "nope") }
        #expect(model.lastError == .notAuthorized("Incorrect username or password."))
    }
}
