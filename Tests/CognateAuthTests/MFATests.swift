import CognateAuth
import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// Authenticator-app MFA through the SDK, against a live server.
struct MFATests {
    @Test func anAppSetUpWhileSignedInIsAskedForAtTheNextSignIn() async throws {
        try await LiveServer.with { live in
            let pool = try await Self.mfaPool(live, mode: .optional)
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            try await live.confirmedUser(client, username: "ada", email: uniqueEmail("mfa"))
            guard case .signedIn = try await client.signIn(username: "ada", password: "Passw0rd1") else {
                Issue.record("no MFA yet: expected signedIn")
                return
            }
            let setup = try await client.setUpTOTP()
            #expect(!"\(setup)".contains(setup.sharedSecret))
            #expect(setup.setupURI(issuer: "Clinic", accountName: "ada")?.absoluteString
                == "otpauth://totp/Clinic:ada?secret=\(setup.sharedSecret)&issuer=Clinic")
            await expectAuthError({ try await client.verifyTOTPSetup(code: Self.code(setup, offset: 5)) }) {
                if case .enableSoftwareTokenMFA = $0 { true } else { false }
            }
            try await client.verifyTOTPSetup(code: Self.code(setup), friendlyName: "phone")
            let preference = try await client.fetchMFAPreference()
            #expect(preference.enabled == ["SOFTWARE_TOKEN_MFA"] && preference.preferred == "SOFTWARE_TOKEN_MFA")
            try await client.signOut()

            let step = try await client.signIn(username: "ada", password: "Passw0rd1")
            #expect(step == .mfaCode(MFACodeChallenge(kind: .totp, destination: nil)))
            await expectAuthError({ _ = try await client.confirmSignIn(mfaCode: Self.code(setup, offset: 5)) }) {
                if case .codeMismatch = $0 { true } else { false }
            }
            guard case .signedIn = try await client.confirmSignIn(mfaCode: Self.code(setup, offset: 1)) else {
                Issue.record("expected signedIn after the app's code")
                return
            }
        }
    }

    @Test func aPoolRequiringMFASetsTheAppUpDuringSignIn() async throws {
        try await LiveServer.with { live in
            let pool = try await Self.mfaPool(live, mode: .on)
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            try await live.confirmedUser(client, username: "bo", email: uniqueEmail("mfa"))
            guard case .totpSetup(let setup) = try await client.signIn(username: "bo", password: "Passw0rd1") else {
                Issue.record("expected the app's set-up as the sign-in's next step")
                return
            }
            guard case .signedIn = try await client.confirmSignIn(mfaCode: Self.code(setup)) else {
                Issue.record("expected signedIn once the app is set up")
                return
            }
            #expect(try await client.fetchMFAPreference().enabled == ["SOFTWARE_TOKEN_MFA"])
        }
    }

    @Test func emailCodesAndAChoiceBetweenFactors() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            _ = try await live.service.pools.setUserPoolMfaConfig(SetUserPoolMfaConfigRequest(
                userPoolId: pool, softwareTokenMfaConfiguration: SoftwareTokenMfaConfigType(enabled: true),
                emailMfaConfiguration: EmailMfaConfigType(), mfaConfiguration: .optional))
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            let email = uniqueEmail("otp")
            try await live.confirmedUser(client, username: "cy", email: email)
            _ = try await client.signIn(username: "cy", password: "Passw0rd1")
            try await client.setMFAPreference(.email, enabled: true)
            try await client.signOut()
            let step = try await client.signIn(username: "cy", password: "Passw0rd1")
            #expect(step == .mfaCode(MFACodeChallenge(kind: .email, destination: "o***@e***")))
            guard case .signedIn = try await client.confirmSignIn(mfaCode: try await live.lastCode(to: email)) else {
                Issue.record("expected signedIn after the emailed code")
                return
            }

            // With an authenticator app too and no preference, the user picks one.
            let setup = try await client.setUpTOTP()
            try await client.verifyTOTPSetup(code: Self.code(setup))
            try await client.setMFAPreference(.totp, enabled: true, preferred: false)
            try await client.signOut()
            #expect(try await client.signIn(username: "cy", password: "Passw0rd1") == .mfaSelection([.totp, .email]))
            #expect(try await client.confirmSignIn(mfaType: .email)
                == .mfaCode(MFACodeChallenge(kind: .email, destination: "o***@e***")))
            guard case .signedIn = try await client.confirmSignIn(mfaCode: try await live.lastCode(to: email)) else {
                Issue.record("expected signedIn after the chosen factor's code")
                return
            }
        }
    }

    /// A pool requiring MFA with the authenticator app and email codes: a user with an email
    /// address is asked for an emailed code at once; one without is sent to MFA_SETUP, which
    /// offers both (`.mfaSetupSelection`). Email: the address given gets a code, and the code
    /// signs in and makes the address the user's, verified, with email MFA on. The app: set up
    /// as when it is the only factor offered. What was not offered is refused before any request.
    @Test func aPoolRequiringAppOrEmailMFASetsUpWhatItOffers() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            _ = try await live.service.pools.setUserPoolMfaConfig(SetUserPoolMfaConfigRequest(
                userPoolId: pool, softwareTokenMfaConfiguration: SoftwareTokenMfaConfigType(enabled: true),
                emailMfaConfiguration: EmailMfaConfigType(), mfaConfiguration: .on))
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))

            let email = uniqueEmail("req")
            try await live.confirmedUser(client, username: "dee", email: email)
            #expect(try await client.signIn(username: "dee", password: "Passw0rd1")
                == .mfaCode(MFACodeChallenge(kind: .email, destination: "r***@e***")))
            guard case .signedIn = try await client.confirmSignIn(mfaCode: try await live.lastCode(to: email)) else {
                Issue.record("expected signedIn after the emailed code")
                return
            }
            try await client.signOut()

            // Email MFA set up during sign-in.
            try await Self.userWithoutEmail(live, pool: pool, username: "eli")
            #expect(try await client.signIn(username: "eli", password: "Passw0rd1") == .mfaSetupSelection([.totp, .email]))
            await expectAuthError({ _ = try await client.confirmSignIn(mfaSetup: .sms) }) {
                if case .invalidState = $0 { true } else { false }
            }
            await expectAuthError({ _ = try await client.confirmSignIn(mfaSetup: .email) }) {
                if case .invalidState = $0 { true } else { false }
            }
            let address = uniqueEmail("eli")
            #expect(try await client.confirmSignIn(mfaSetup: .email, email: address)
                == .mfaCode(MFACodeChallenge(kind: .email, destination: "e***@e***")))
            guard case .signedIn = try await client.confirmSignIn(mfaCode: try await live.lastCode(to: address)) else {
                Issue.record("expected signedIn after the code sent to the new address")
                return
            }
            let attributes = try await client.fetchUserAttributes()
            #expect(attributes["email"] == address && attributes["email_verified"] == "true")
            #expect(try await client.fetchMFAPreference().enabled == ["EMAIL_OTP"])
            try await client.signOut()
            #expect(try await client.signIn(username: "eli", password: "Passw0rd1")
                == .mfaCode(MFACodeChallenge(kind: .email, destination: "e***@e***")))
            guard case .signedIn = try await client.confirmSignIn(mfaCode: try await live.lastCode(to: address)) else {
                Issue.record("expected signedIn with the emailed code")
                return
            }
            try await client.signOut()

            // The authenticator app chosen instead.
            try await Self.userWithoutEmail(live, pool: pool, username: "fay")
            #expect(try await client.signIn(username: "fay", password: "Passw0rd1") == .mfaSetupSelection([.totp, .email]))
            await expectAuthError({ _ = try await client.confirmSignIn(mfaCode: "123456") }) {
                if case .invalidState = $0 { true } else { false }
            }
            guard case .totpSetup(let setup) = try await client.confirmSignIn(mfaSetup: .totp) else {
                Issue.record("expected the app's set-up after choosing it")
                return
            }
            guard case .signedIn = try await client.confirmSignIn(mfaCode: Self.code(setup)) else {
                Issue.record("expected signedIn once the app is set up")
                return
            }
            #expect(try await client.fetchMFAPreference().enabled == ["SOFTWARE_TOKEN_MFA"])
        }
    }

    /// A pool requiring email MFA alone: a user without an address is asked for one
    /// (`.mfaSetupSelection([.email])`), and a wrong code to it keeps the challenge open.
    @Test func aPoolRequiringEmailMFAAloneAsksForTheAddress() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            _ = try await live.service.pools.setUserPoolMfaConfig(SetUserPoolMfaConfigRequest(
                userPoolId: pool, emailMfaConfiguration: EmailMfaConfigType(), mfaConfiguration: .on))
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            try await Self.userWithoutEmail(live, pool: pool, username: "gus")
            #expect(try await client.signIn(username: "gus", password: "Passw0rd1") == .mfaSetupSelection([.email]))
            await expectAuthError({ _ = try await client.confirmSignIn(mfaSetup: .totp) }) {
                if case .invalidState = $0 { true } else { false }
            }
            let address = uniqueEmail("gus")
            #expect(try await client.confirmSignIn(mfaSetup: .email, email: address)
                == .mfaCode(MFACodeChallenge(kind: .email, destination: "g***@e***")))
            let code = try await live.lastCode(to: address)
            await expectAuthError({ _ = try await client.confirmSignIn(mfaCode: code == "000000" ? "111111" : "000000") }) {
                if case .codeMismatch = $0 { true } else { false }
            }
            guard case .signedIn = try await client.confirmSignIn(mfaCode: code) else {
                Issue.record("expected signedIn after the right code")
                return
            }
            #expect(try await client.fetchUserAttributes()["email"] == address)
        }
    }

    /// A confirmed user with a password and no email address (made by an administrator).
    private static func userWithoutEmail(_ live: LiveServer, pool: String, username: String) async throws {
        _ = try await live.service.userAdministration.adminCreateUser(AdminCreateUserRequest(
            userPoolId: pool, username: username, temporaryPassword: "Temp0rary1", messageAction: .suppress))
        _ = try await live.service.userAdministration.adminSetUserPassword(AdminSetUserPasswordRequest(
            userPoolId: pool, username: username, password: "Passw0rd1", permanent: true))
    }

    /// A pool with authenticator-app MFA `mode` (optional or required).
    private static func mfaPool(_ live: LiveServer, mode: UserPoolMfaType) async throws -> String {
        let pool = try await live.makePool()
        _ = try await live.service.pools.setUserPoolMfaConfig(SetUserPoolMfaConfigRequest(
            userPoolId: pool, softwareTokenMfaConfiguration: SoftwareTokenMfaConfigType(enabled: true), mfaConfiguration: mode))
        return pool
    }

    /// The app's code `offset` steps from now (1: the next one, never used yet).
    private static func code(_ setup: TOTPSetup, offset: Int64 = 0) -> String {
        TOTP.code(secret: Base32.decode(setup.sharedSecret) ?? [], step: TOTP.step(at: Date()) + offset)
    }
}
