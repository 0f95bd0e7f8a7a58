import CognateAuth
import CognateCore
import CognateProtocol
import Foundation
import Testing

/// The registration journey (docs/sdk.md) through ``RegistrationFlow``.
struct RegistrationFlowTests {
    static let profileFields = ["given_name", "family_name", "birthdate", "gender", "custom:accepted_tos"]
    static let consentSchema = ["accepted_tos", "accepted_privacy", "accepted_hipaa"].map {
        SchemaAttributeType(name: $0, attributeDataType: .string, mutable: true)
    }
    static let profile = [
        "given_name": "Ada", "family_name": "Lovelace", "birthdate": "1990-12-10", "gender": "female",
        "custom:accepted_tos": "2026-01-01T10:00:00Z",
    ]

    static func flow(_ client: AuthClient) -> RegistrationFlow {
        RegistrationFlow(client: client, requiredAttributes: profileFields)
    }

    @Test func resumesAtTheCodeStepAfterARestart() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(emailSignIn: true, schema: Self.consentSchema)
            let app = try await live.makeClient(pool: pool)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cognate-reg-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let email = uniqueEmail("reg")

            let firstClient = live.authClient(pool: pool, client: app, store: FileTokenStore(directory: directory))
            let first = Self.flow(firstClient)
            #expect(try await first.resume() == .signUp(missingAttributes: []))
            let step = try await first.signUp(username: email, password: "Passw0rd1", attributes: ["phone_number": "+15555550100"])
            guard case .confirmSignUp(email, let delivery?, false) = step else {
                Issue.record("expected the code step, got \(step)")
                return
            }
            #expect(delivery.medium == .email)
            #expect(await firstClient.state() == .registrationIncomplete)

            // The app is killed; a new client over the same store resumes at the code step.
            let client = live.authClient(pool: pool, client: app, store: FileTokenStore(directory: directory))
            #expect(await client.state() == .registrationIncomplete)
            let flow = Self.flow(client)
            #expect(try await flow.resume() == step)
            // The password was not stored, so after the code the flow asks for it.
            #expect(try await flow.confirm(code: try await live.lastCode(to: email)) == .signIn(username: email))
            #expect(try await flow.signIn(password: "Passw0rd1") == .needsProfile(missing: Self.profileFields))
            #expect(await client.state() == .registrationIncomplete)

            let partial = ["given_name": "Ada", "family_name": "Lovelace"]
            #expect(try await flow.completeProfile(partial)
                == .needsProfile(missing: ["birthdate", "gender", "custom:accepted_tos"]))
            #expect(try await flow.completeProfile(Self.profile.filter { partial[$0.key] == nil }) == .complete)
            guard case .signedIn(let user) = await client.state() else {
                Issue.record("expected signedIn")
                return
            }
            #expect(user.attributes["email"] == email)
            #expect(user.attributes["given_name"] == "Ada")  // the session was refreshed on completion

            // The launch check of a later start: signed in, profile complete.
            let later = live.authClient(pool: pool, client: app, store: FileTokenStore(directory: directory))
            #expect(try await Self.flow(later).resume() == .complete)
        }
    }

    @Test func existingAccountsSignInInstead() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(emailSignIn: true, schema: Self.consentSchema)
            let app = try await live.makeClient(pool: pool)

            // Unconfirmed account, registering again on another device → the code step.
            let pending = uniqueEmail("pending")
            _ = try await Self.flow(live.authClient(pool: pool, client: app)).signUp(username: pending, password: "Passw0rd1")
            let again = Self.flow(live.authClient(pool: pool, client: app))
            #expect(try await again.signUp(username: pending, password: "Passw0rd1")
                == .confirmSignUp(username: pending, delivery: nil, previousCodeExpired: false))
            #expect(try await again.confirm(code: try await live.lastCode(to: pending)) == .needsProfile(missing: Self.profileFields))

            // Confirmed account with a complete profile → done.
            let done = uniqueEmail("done")
            let owner = live.authClient(pool: pool, client: app)
            try await live.confirmedUser(owner, username: done, email: done, attributes: Self.profile)
            #expect(try await Self.flow(live.authClient(pool: pool, client: app)).signUp(username: done, password: "Passw0rd1") == .complete)

            // Wrong password for an existing account → the error, still at step 1.
            let flow = Self.flow(live.authClient(pool: pool, client: app))
            await expectAuthError({ _ = try await flow.signUp(username: done, password: "Other0ne1") }) {
                if case .notAuthorized = $0 { true } else { false }
            }
            #expect(await flow.step == .signUp(missingAttributes: []))
        }
    }

    @Test func expiredCodeIsResentThenConfirmed() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(emailSignIn: true, schema: Self.consentSchema)
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            let email = uniqueEmail("exp")
            let flow = Self.flow(client)
            _ = try await flow.signUp(username: email, password: "Passw0rd1")
            let old = try await live.lastCode(to: email)
            try await client.resendSignUpCode(username: email)  // supersedes `old`
            let step = try await flow.confirm(code: old)
            guard case .confirmSignUp(email, _?, true) = step else {
                Issue.record("expected a resent code, got \(step)")
                return
            }
            let fresh = try await live.lastCode(to: email)
            #expect(try await flow.confirm(code: fresh) == .needsProfile(missing: Self.profileFields))

            let wrong = Self.flow(live.authClient(pool: pool, client: try await live.makeClient(pool: pool)))
            let other = uniqueEmail("typo")
            _ = try await wrong.signUp(username: other, password: "Passw0rd1")
            let code = try await live.lastCode(to: other)
            await expectAuthError({ _ = try await wrong.confirm(code: code == "000000" ? "111111" : "000000") }) {
                if case .codeMismatch = $0 { true } else { false }
            }
            #expect(try await wrong.resendCode() != .signUp(missingAttributes: []))
        }
    }

    /// The code is accepted but the remembered password no longer matches (confirmed and
    /// changed elsewhere) → the "forgot your password?" path.
    @Test func passwordMismatchAfterConfirmOffersReset() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(emailSignIn: true, schema: Self.consentSchema)
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            let email = uniqueEmail("mismatch")
            let flow = Self.flow(client)
            _ = try await flow.signUp(username: email, password: "Passw0rd1")
            let code = try await live.lastCode(to: email)
            _ = try await live.service.registration.adminConfirmSignUp(AdminConfirmSignUpRequest(userPoolId: pool, username: email))
            _ = try await live.service.userAdministration.adminSetUserPassword(AdminSetUserPasswordRequest(
                userPoolId: pool, username: email, password: "Elsewhere0", permanent: true))
            _ = try await live.service.userAdministration.adminUpdateUserAttributes(AdminUpdateUserAttributesRequest(
                userPoolId: pool, username: email, userAttributes: [AttributeType(name: "email_verified", value: "true")]))

            #expect(try await flow.confirm(code: code) == .forgotPassword(username: email))
            await expectAuthError({ _ = try await flow.signIn(password: "Still0wrong") }) {
                if case .notAuthorized = $0 { true } else { false }
            }
            let reset = try await flow.requestPasswordReset()
            guard case .resetPassword(email, let delivery?) = reset else {
                Issue.record("expected the reset step, got \(reset)")
                return
            }
            #expect(delivery.attributeName == "email")
            #expect(try await flow.confirmPasswordReset(code: try await live.lastCode(to: email), newPassword: "Reset0Pass")
                == .needsProfile(missing: Self.profileFields))
        }
    }

    /// Only "already CONFIRMED" counts as confirmed: a code refused for a wrong secret hash is
    /// thrown, and the flow stays at the code step instead of offering a password reset.
    @Test func wrongSecretHashAtConfirmIsAnError() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(emailSignIn: true, schema: Self.consentSchema)
            let app = try await live.makeClient(pool: pool, secret: true)
            let store = InMemoryTokenStore()
            let email = uniqueEmail("hash")
            let step = try await Self.flow(live.authClient(pool: pool, client: app, store: store))
                .signUp(username: email, password: "Passw0rd1")

            // The app comes back with a wrong secret configured.
            let misconfigured = LiveServer.AppClient(id: app.id, secret: "not-the-secret")
            let flow = Self.flow(live.authClient(pool: pool, client: misconfigured, store: store))
            #expect(try await flow.resume() == step)
            await expectAuthError({ _ = try await flow.confirm(code: try await live.lastCode(to: email)) }) {
                if case .notAuthorized(let message) = $0 { message.contains("secret hash") } else { false }
            }
            #expect(await flow.step == step)

            // With the right secret the same code confirms.
            let fixed = Self.flow(live.authClient(pool: pool, client: app, store: store))
            #expect(try await fixed.resume() == step)
            #expect(try await fixed.confirm(code: try await live.lastCode(to: email)) == .signIn(username: email))
        }
    }

    @Test func poolRequiredAttributesAreLearnedFromTheServer() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(
                emailSignIn: true, schema: Self.consentSchema + [SchemaAttributeType(name: "name", required: true)])
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            let flow = RegistrationFlow(client: client, requiredAttributes: ["gender"])
            let email = uniqueEmail("req")
            #expect(try await flow.signUp(username: email, password: "Passw0rd1") == .signUp(missingAttributes: ["name"]))
            _ = try await flow.signUp(username: email, password: "Passw0rd1", attributes: ["name": "Ada L"])
            #expect(try await flow.confirm(code: try await live.lastCode(to: email)) == .needsProfile(missing: ["gender"]))

            // An administrator-created account: NEW_PASSWORD_REQUIRED names the pool's required attributes.
            let invited = uniqueEmail("invited")
            _ = try await live.service.userAdministration.adminCreateUser(AdminCreateUserRequest(
                userPoolId: pool, username: invited,
                userAttributes: [AttributeType(name: "email_verified", value: "true")],
                temporaryPassword: "Temp0rary1", messageAction: .suppress))
            let admitted = RegistrationFlow(client: live.authClient(pool: pool, client: try await live.makeClient(pool: pool)),
                                            requiredAttributes: ["gender"])
            #expect(try await admitted.signUp(username: invited, password: "Temp0rary1", attributes: ["name": "Invitee"])
                == .newPasswordRequired(username: invited, requiredAttributes: ["name"]))
            #expect(try await admitted.setNewPassword("Chosen0ne1", attributes: ["name": "Invitee"])
                == .needsProfile(missing: ["gender"]))
            #expect(try await admitted.completeProfile(["gender": "other"]) == .complete)
        }
    }

    /// The pool's PreSignUp function refuses a clinic's email: its message reaches the app.
    @Test func lambdaRefusalsSurfaceTheirMessage() async throws {
        try await LiveServer.with { live in
            try await TestFunctions.with(live) { functions in
                let pool = try await live.makePool(emailSignIn: true, functions: functions)
                let message = "PreSignUp failed with error \(TestFunctions.clinicRefusal)."
                let flow = Self.flow(live.authClient(pool: pool, client: try await live.makeClient(pool: pool)))
                await expectAuthError({ _ = try await flow.signUp(username: "ada@clinic.example", password: "Passw0rd1") }) {
                    if case .userLambdaValidation(let text) = $0 { text == message } else { false }
                }
                #expect(await flow.step == .signUp(missingAttributes: []))
                await expectAuthError({ _ = try await flow.confirm(code: "123456") }) {
                    if case .invalidState = $0 { true } else { false }
                }
                // Another email goes through.
                guard case .confirmSignUp = try await flow.signUp(username: uniqueEmail(), password: "Passw0rd1") else {
                    Issue.record("expected the code step after a refused sign-up")
                    return
                }
            }
        }
    }
}
