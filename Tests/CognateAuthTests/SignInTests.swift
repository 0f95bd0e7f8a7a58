import CognateAuth
import CognateCore
import CognateProtocol
import Foundation
import Testing

/// SRP and password sign-in, the steps a sign-in can end in, and NEW_PASSWORD_REQUIRED.
struct SignInTests {
    /// SRP against an email-as-username pool with a client secret: the claim, the answer's
    /// USERNAME and its SECRET_HASH all use USER_ID_FOR_SRP (a UUID), not the typed email.
    @Test func srpSignInWithSecretAndEmailUsernames() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(emailSignIn: true)
            let app = try await live.makeClient(pool: pool, secret: true)
            #expect(app.secret != nil)
            let client = live.authClient(pool: pool, client: app)
            let email = uniqueEmail("srp")
            try await live.confirmedUser(client, username: email, email: email)
            let step = try await client.signIn(username: email, password: "Passw0rd1")
            guard case .signedIn(let user) = step else {
                Issue.record("expected signedIn, got \(step)")
                return
            }
            #expect(user.attributes["email"] == email)
            #expect(user.username == user.userId)  // email pools use the sub as username
            #expect(await client.state() == .signedIn(user))
            // Refresh with the secret: SECRET_HASH over cognito:username.
            let refreshed = try await client.refreshSession()
            #expect(refreshed.user == user)
        }
    }

    @Test func passwordSignInAndItsSteps() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            let email = uniqueEmail()
            try await live.confirmedUser(client, username: "pat", email: email)
            #expect(try await client.signIn(username: "pat", password: "Passw0rd1", flow: .password).isSignedIn)
            #expect(try await client.currentSession().user.username == "pat")

            _ = try await client.signUp(username: "una", password: "Passw0rd1", attributes: ["email": uniqueEmail()])
            #expect(try await client.signIn(username: "una", password: "Passw0rd1") == .confirmSignUp(username: "una"))
            #expect(try await client.signIn(username: "una", password: "Passw0rd1", flow: .password)
                == .confirmSignUp(username: "una"))

            _ = try await live.service.userAdministration.adminResetUserPassword(AdminResetUserPasswordRequest(userPoolId: pool, username: "pat"))
            #expect(try await client.signIn(username: "pat", password: "Passw0rd1") == .resetPassword(username: "pat"))
            try await client.confirmForgotPassword(username: "pat", code: try await live.lastCode(to: email), newPassword: "Newpassw0rd")
            #expect(try await client.signIn(username: "pat", password: "Newpassw0rd").isSignedIn)
        }
    }

    @Test func newPasswordRequiredForAdminCreatedUsers() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(schema: [SchemaAttributeType(name: "given_name", required: true)])
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            _ = try await live.service.userAdministration.adminCreateUser(AdminCreateUserRequest(
                userPoolId: pool, username: "newbie",
                userAttributes: [AttributeType(name: "email", value: uniqueEmail()), AttributeType(name: "email_verified", value: "true")],
                temporaryPassword: "Temp0rary1", messageAction: .suppress))

            await expectAuthError({ _ = try await client.confirmSignIn(newPassword: "x") }) {
                if case .invalidState = $0 { true } else { false }
            }
            let step = try await client.signIn(username: "newbie", password: "Temp0rary1")
            guard case .newPasswordRequired(let required, let session) = step else {
                Issue.record("expected newPasswordRequired, got \(step)")
                return
            }
            #expect(required == ["given_name"])
            #expect(session.username == "newbie" && session.currentAttributes["email"] != nil)

            // A weak password and a missing attribute leave the challenge pending.
            await expectAuthError({ _ = try await client.confirmSignIn(newPassword: "weak", attributes: ["given_name": "Nia"]) }) {
                if case .invalidPassword = $0 { true } else if case .invalidParameter = $0 { true } else { false }
            }
            await expectAuthError({ _ = try await client.confirmSignIn(newPassword: "Chosen0ne1") }) {
                if case .invalidParameter(let message) = $0 { message.contains("given_name") } else { false }
            }
            let done = try await client.confirmSignIn(newPassword: "Chosen0ne1", attributes: ["given_name": "Nia"])
            guard case .signedIn(let user) = done else {
                Issue.record("expected signedIn, got \(done)")
                return
            }
            #expect(user.attributes["given_name"] == "Nia")
            #expect(try await client.signIn(username: "newbie", password: "Chosen0ne1").isSignedIn)
        }
    }
}
