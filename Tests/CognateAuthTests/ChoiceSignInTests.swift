import CognateAuth
import CognateProtocol
import Foundation
import Testing

/// Choice-based sign-in (USER_AUTH) and passwordless sign-up through the SDK, against a live
/// server: the first-factor selection, the password (SRP or sent), one-time codes by email and
/// SMS, MFA after the password, and the sign-in a confirmed sign-up's session gives.
struct ChoiceSignInTests {
    @Test func theUserChoosesAFirstFactorAndThePasswordSignsIn() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(firstFactors: [.password, .emailOtp])
            let transport = CountingTransport()
            let client = live.authClient(
                pool: pool, client: try await live.makeClient(pool: pool, userAuth: true), transport: transport)
            try await live.confirmedUser(client, username: "ada", email: uniqueEmail("choice"))
            let offered: [FirstFactor] = [.password, .passwordSRP, .emailOTP]

            #expect(try await client.signIn(username: "ada") == .firstFactorSelection(offered))
            // A factor the user is not offered is refused here, and the choice stays open.
            await expectAuthError({ _ = try await client.confirmSignIn(firstFactor: .webAuthn) }) {
                $0 == .factorNotOffered(.webAuthn, offered: offered)
            }
            #expect(try await client.confirmSignIn(firstFactor: .passwordSRP) == .passwordRequired)
            guard case .signedIn(let user) = try await client.confirmSignIn(password: "Passw0rd1") else {
                Issue.record("expected signedIn after the password")
                return
            }
            #expect(user.username == "ada")
            // The selection was answered with SRP_A: the password never went out.
            var answers = Self.challengeAnswers(transport)
            #expect(answers.contains { $0["ANSWER"] == "PASSWORD_SRP" && $0["SRP_A"] != nil })
            #expect(!answers.contains { $0["PASSWORD"] != nil })
            try await client.signOut()

            // Preferred up front: asked for at once; `.password` sends it.
            #expect(try await client.signIn(username: "ada", preferred: .password) == .passwordRequired)
            guard case .signedIn = try await client.confirmSignIn(password: "Passw0rd1") else {
                Issue.record("expected signedIn with the password sent")
                return
            }
            answers = Self.challengeAnswers(transport)
            #expect(answers.last?["ANSWER"] == "PASSWORD" && answers.last?["PASSWORD"] == "Passw0rd1")
            try await client.signOut()

            // A wrong password ends the attempt: the selection was used up.
            _ = try await client.signIn(username: "ada")
            await expectAuthError({ _ = try await client.confirmSignIn(password: "Wrong0ne1") }) {
                $0 == .notAuthorized("Incorrect username or password.")
            }
            await expectAuthError({ _ = try await client.confirmSignIn(password: "Passw0rd1") }) {
                if case .invalidState = $0 { true } else { false }
            }
            #expect(await client.state() == .signedOut)
        }
    }

    @Test func aCodeByEmailIsAFirstFactor() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(firstFactors: [.password, .emailOtp])
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool, userAuth: true))
            let email = uniqueEmail("code")
            try await live.confirmedUser(client, username: "bo", email: email)
            let delivery = CodeDelivery(destination: "c***@e***", medium: .email, attributeName: "email")

            #expect(try await client.signIn(username: "bo", preferred: .emailOTP) == .otpCode(delivery))
            let code = try await live.lastCode(to: email)
            #expect(code.count == 8)
            await expectAuthError({ _ = try await client.confirmSignIn(otpCode: code == "00000000" ? "11111111" : "00000000") }) {
                if case .codeMismatch = $0 { true } else { false }
            }
            guard case .signedIn = try await client.confirmSignIn(otpCode: code) else {
                Issue.record("expected signedIn after the emailed code (a wrong one keeps the step)")
                return
            }
            try await client.signOut()

            // Chosen when asked.
            #expect(try await client.signIn(username: "bo") == .firstFactorSelection([.password, .passwordSRP, .emailOTP]))
            #expect(try await client.confirmSignIn(firstFactor: .emailOTP) == .otpCode(delivery))
            guard case .signedIn = try await client.confirmSignIn(otpCode: try await live.lastCode(to: email)) else {
                Issue.record("expected signedIn after the chosen code")
                return
            }
            await expectAuthError({ _ = try await client.confirmSignIn(otpCode: "12345678") }) {
                if case .invalidState = $0 { true } else { false }
            }
        }
    }

    @Test func aCodeBySMSIsAFirstFactor() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(firstFactors: [.password, .smsOtp])
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool, userAuth: true))
            let phone = "+15550009876"
            try await live.confirmedUser(client, username: "hal", email: uniqueEmail("sms"), attributes: ["phone_number": phone])
            // A code by SMS needs a verified number (sign-up verified the email).
            #expect(try await client.signIn(username: "hal", preferred: .smsOTP) == .firstFactorSelection([.password, .passwordSRP]))
            _ = try await live.service.userAdministration.adminUpdateUserAttributes(AdminUpdateUserAttributesRequest(
                userPoolId: pool, username: "hal", userAttributes: [AttributeType(name: "phone_number_verified", value: "true")]))

            guard case .otpCode(let delivery) = try await client.signIn(username: "hal", preferred: .smsOTP) else {
                Issue.record("expected the SMS code step")
                return
            }
            #expect(delivery.medium == .sms && delivery.attributeName == "phone_number" && delivery.destination.hasSuffix("9876"))
            guard case .signedIn = try await client.confirmSignIn(otpCode: try await live.lastCode(to: phone)) else {
                Issue.record("expected signedIn after the SMS code")
                return
            }
        }
    }

    /// A user with MFA is offered only the password, and is asked for the second factor after it.
    @Test func thePasswordIsFollowedByTheUsersSecondFactor() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(firstFactors: [.password, .emailOtp])
            _ = try await live.service.pools.setUserPoolMfaConfig(SetUserPoolMfaConfigRequest(
                userPoolId: pool, emailMfaConfiguration: EmailMfaConfigType(), mfaConfiguration: .optional))
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool, userAuth: true))
            let email = uniqueEmail("mfa")
            try await live.confirmedUser(client, username: "cy", email: email)
            _ = try await client.signIn(username: "cy", password: "Passw0rd1")
            try await client.setMFAPreference(.email, enabled: true, preferred: true)
            try await client.signOut()

            #expect(try await client.signIn(username: "cy") == .firstFactorSelection([.password, .passwordSRP]))
            #expect(try await client.confirmSignIn(password: "Passw0rd1")
                == .mfaCode(MFACodeChallenge(kind: .email, destination: "m***@e***")))
            let code = try await live.lastCode(to: email)
            #expect(code.count == 6)
            guard case .signedIn = try await client.confirmSignIn(mfaCode: code) else {
                Issue.record("expected signedIn after the second factor")
                return
            }
        }
    }

    @Test func aPasswordlessSignUpSignsInWithItsConfirmation() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(firstFactors: [.password, .emailOtp])
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool, userAuth: true))
            let email = uniqueEmail("nopass")

            let result = try await client.signUp(username: "dee", attributes: ["email": email])
            guard case .confirmSignUp(let delivery?) = result.nextStep else {
                Issue.record("expected a code step, got \(result.nextStep)")
                return
            }
            #expect(delivery.medium == .email && delivery.attributeName == "email")
            #expect(try await client.confirmSignUp(username: "dee", code: try await live.lastCode(to: email))
                == .completeAutoSignIn)
            #expect(try await client.pendingCodes().isEmpty)
            guard case .signedIn(let user) = try await client.autoSignIn() else {
                Issue.record("expected signedIn by the confirmation's session")
                return
            }
            #expect(user.userId == result.userSub && user.username == "dee")
            await expectAuthError({ _ = try await client.autoSignIn() }) {  // it signs in once
                if case .invalidState = $0 { true } else { false }
            }
            #expect(try await client.fetchAuthFactors() == [.emailOTP])
            try await client.signOut()

            // No password: codes are the way in.
            #expect(try await client.signIn(username: "dee") == .firstFactorSelection([.emailOTP]))
            guard case .otpCode = try await client.confirmSignIn(firstFactor: .emailOTP),
                case .signedIn = try await client.confirmSignIn(otpCode: try await live.lastCode(to: email))
            else {
                Issue.record("expected the emailed code to sign in")
                return
            }
            try await client.signOut()
            await expectAuthError({ _ = try await client.signIn(username: "dee", password: "Passw0rd1") }) {
                $0 == .notAuthorized("Incorrect username or password.")
            }
        }
    }

    /// In a pool where email is the username, the user signs up, confirms and signs in with
    /// the email, as Amazon Cognito (and Amplify's autoSignIn) do: the confirmation's session
    /// takes the email as USERNAME, not only the user's `sub`.
    @Test func autoSignInWhereEmailIsTheUsername() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(emailSignIn: true, firstFactors: [.password, .emailOtp])
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool, userAuth: true))
            let email = uniqueEmail("alias")
            _ = try await client.signUp(username: email, attributes: ["email": email])
            #expect(try await client.confirmSignUp(username: email, code: try await live.lastCode(to: email))
                == .completeAutoSignIn)
            guard case .signedIn = try await client.autoSignIn() else {
                Issue.record("expected signedIn by the confirmation's session")
                return
            }
        }
    }

    /// Without the sign-up's session (another client confirms, or one whose app client does
    /// not allow USER_AUTH), confirming is all: the user signs in as usual.
    @Test func aConfirmationWithoutTheSignUpsSessionDoesNotSignIn() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(firstFactors: [.password, .emailOtp])
            let app = try await live.makeClient(pool: pool, userAuth: true)
            let email = uniqueEmail("later")
            _ = try await live.authClient(pool: pool, client: app).signUp(username: "eli", attributes: ["email": email])
            let relaunched = live.authClient(pool: pool, client: app)
            #expect(try await relaunched.confirmSignUp(username: "eli", code: try await live.lastCode(to: email)) == .done)
            await expectAuthError({ _ = try await relaunched.autoSignIn() }) {
                if case .invalidState = $0 { true } else { false }
            }

            let passwordOnly = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            let other = uniqueEmail("classic")
            _ = try await passwordOnly.signUp(username: "fay", password: "Passw0rd1", attributes: ["email": other])
            #expect(try await passwordOnly.confirmSignUp(username: "fay", code: try await live.lastCode(to: other)) == .done)
            // Without a password the pool (or the app client) must allow codes as a first factor.
            await expectAuthError({ _ = try await passwordOnly.signUp(username: "gus", attributes: ["email": uniqueEmail()]) }) {
                if case .invalidParameter = $0 { true } else { false }
            }
            // Choice-based sign-in is a flow the app client must allow.
            await expectAuthError({ _ = try await passwordOnly.signIn(username: "fay") }) {
                if case .invalidParameter = $0 { true } else { false }
            }
        }
    }

    /// The challenge answers sent (`ChallengeResponses` of every RespondToAuthChallenge).
    static func challengeAnswers(_ transport: CountingTransport) -> [[String: String]] {
        transport.sentBodies("RespondToAuthChallenge").map { $0["ChallengeResponses"] as? [String: String] ?? [:] }
    }
}
