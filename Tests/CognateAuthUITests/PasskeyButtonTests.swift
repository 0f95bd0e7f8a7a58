import CognateAuth
import Foundation
import Testing

@testable import CognateAuthUI

/// The sign-in screen's passkey button: offered when the app gives a passkey authenticator;
/// it asks for the name only, then the authenticator signs the challenge.
@MainActor
struct PasskeyButtonTests {
    /// Answers every challenge (the fake verifies nothing), counting them; or refuses, as a user
    /// who cancels the system sheet.
    final class Authenticator: PasskeyAuthenticator, @unchecked Sendable {
        let cancels: Bool
        private(set) var asked = 0
        init(cancels: Bool = false) { self.cancels = cancels }
        func createPasskey(optionsJSON: String) async throws -> String { "{}" }
        func assertPasskey(optionsJSON: String) async throws -> String {
            asked += 1
            if cancels { throw CancellationError() }
            return "{}"
        }
    }

    @Test func thePasskeyButtonSignsTheNamedUserIn() async throws {
        let strings = AuthenticatorStrings()
        let fake = FakeAuth(accounts: [FakeAuth.Account(username: "kai", password: "Passw0rd!", firstFactors: [.password, .webAuthn])])
        let authenticator = Authenticator()
        let model = AuthenticatorModel(auth: fake, passkeyAuthenticator: authenticator)
        await model.start()
        #expect(model.links.first == AuthenticatorLink(title: strings.usePasskeyLink, action: .usePasskey))

        await model.perform(.usePasskey)   // no name yet
        #expect(model.fieldErrors[Key.username] == strings.requiredField(strings.usernameLabel))
        #expect(authenticator.asked == 0)

        model.setValue("kai", for: Key.username)
        await model.perform(.usePasskey)   // no password needed
        expectSignedIn(model, as: "kai")
        #expect(authenticator.asked == 1)
    }

    @Test func withoutAnAuthenticatorThereIsNoButton() async {
        let model = AuthenticatorModel(auth: FakeAuth(accounts: [FakeAuth.Account(username: "kai", password: "Passw0rd!")]))
        await model.start()
        #expect(!model.links.contains { $0.action == .usePasskey })
        model.setValue("kai", for: Key.username)
        await model.perform(.usePasskey)
        #expect(model.screen == .signIn)
    }

    /// As Cognito's USER_AUTH: a preferred factor the user lacks gives way to the one they have.
    @Test func aUserWithoutAPasskeyIsAskedForThePassword() async {
        let fake = FakeAuth(accounts: [FakeAuth.Account(username: "lee", password: "Passw0rd!")])
        let authenticator = Authenticator()
        let model = AuthenticatorModel(auth: fake, passkeyAuthenticator: authenticator)
        await model.start()
        model.setValue("lee", for: Key.username)
        await model.perform(.usePasskey)
        #expect(model.screen == .password)
        #expect(authenticator.asked == 0)
    }
}
