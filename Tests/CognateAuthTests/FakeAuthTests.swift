import CognateAuth
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
        // As the real client: the token goes to https and loopback addresses only.
        let api = try await auth.authorizedRequest(URLRequest(url: URL(string: "https://api.example/me")!))
        #expect(api.value(forHTTPHeaderField: "Authorization")?.hasPrefix("Bearer ") == true)
        await #expect(throws: AuthError.self) {
            _ = try await auth.authorizedRequest(URLRequest(url: URL(string: "http://api.example/me")!))
        }
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

    @Test func mfaChoiceMfaSetUpAndChoiceBasedSignInAreModelled() async throws {
        let fake = FakeAuth(accounts: [
            FakeAuth.Account(username: "di", password: "Passw0rd!", mfaChoices: [.sms, .totp]),
            FakeAuth.Account(username: "ed", password: "Passw0rd!", mfaSetup: [.totp]),
            FakeAuth.Account(username: "fay", password: "Passw0rd!", mfaSetup: [.totp, .email]),
            FakeAuth.Account(username: "gus", password: "Passw0rd!", attributes: ["email": "gus@example.com"],
                             firstFactors: [.password, .emailOTP]),
        ])
        let auth: any AuthProviding = fake

        #expect(try await auth.signIn(username: "di", password: "Passw0rd!") == .mfaSelection([.sms, .totp]))
        await #expect(throws: AuthError.self) { try await auth.confirmSignIn(mfaType: .email) }
        #expect(try await auth.confirmSignIn(mfaType: .totp) == .mfaCode(MFACodeChallenge(kind: .totp, destination: nil)))
        guard case .signedIn = try await auth.confirmSignIn(mfaCode: fake.code) else { throw AuthError.invalidState("di") }

        guard case .totpSetup(let setup) = try await auth.signIn(username: "ed", password: "Passw0rd!") else {
            throw AuthError.invalidState("no TOTP set-up")
        }
        #expect(!setup.sharedSecret.isEmpty)
        await #expect(throws: AuthError.self) { try await auth.confirmSignIn(mfaCode: "000000") }
        guard case .signedIn = try await auth.confirmSignIn(mfaCode: fake.code) else { throw AuthError.invalidState("ed") }
        #expect(await fake.accounts["ed"]?.mfa == .totp)

        #expect(try await auth.signIn(username: "fay", password: "Passw0rd!") == .mfaSetupSelection([.totp, .email]))
        #expect(try await auth.confirmSignIn(mfaSetup: .email, email: "fay@example.com")
            == .mfaCode(MFACodeChallenge(kind: .email, destination: "fay@example.com")))
        guard case .signedIn = try await auth.confirmSignIn(mfaCode: fake.code) else { throw AuthError.invalidState("fay") }
        let fay = await fake.accounts["fay"]
        #expect(fay?.mfa == .email && fay?.attributes["email"] == "fay@example.com")
        try await auth.signOut()
        #expect(try await auth.signIn(username: "fay", password: "Passw0rd!")
            == .mfaCode(MFACodeChallenge(kind: .email, destination: "fay@example.com")))

        #expect(try await auth.signIn(username: "gus", preferred: nil) == .firstFactorSelection([.password, .emailOTP]))
        await #expect(throws: AuthError.self) { try await auth.confirmSignIn(firstFactor: .smsOTP) }
        let sent = CodeDelivery(destination: "gus@example.com", medium: .email, attributeName: "email")
        #expect(try await auth.confirmSignIn(firstFactor: .emailOTP) == .otpCode(sent))
        guard case .signedIn = try await auth.confirmSignIn(otpCode: fake.code) else { throw AuthError.invalidState("gus") }
        #expect(try await auth.signIn(username: "gus", preferred: .emailOTP) == .otpCode(sent))
        #expect(try await auth.signIn(username: "gus", preferred: .password) == .passwordRequired)
        guard case .signedIn = try await auth.confirmSignIn(password: "Passw0rd!") else { throw AuthError.invalidState("gus") }
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
