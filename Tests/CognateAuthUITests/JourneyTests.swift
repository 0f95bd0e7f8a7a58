import CognateAuth
import Foundation
import Testing

@testable import CognateAuthUI

/// Every journey of the Authenticator, driven through the model's actions as its views do,
/// against FakeAuth.
@MainActor
struct JourneyTests {
    let strings = AuthenticatorStrings()

    @Test func signInChecksTheFieldsThenSignsIn() async throws {
        let fake = FakeAuth(accounts: [FakeAuth.Account(username: "ann", password: "Passw0rd!")])
        let model = AuthenticatorModel(auth: fake)
        #expect(model.screen == .loading)
        await model.start()
        #expect(model.screen == .signIn)
        #expect(model.fields.map(\.key) == [Key.username, Key.password])
        #expect(model.links.map(\.action) == [.goToForgotPassword, .goToSignUp])
        #expect(model.title == strings.signInTitle && model.submitTitle == strings.signInButton)

        await model.submit()
        #expect(model.fieldErrors[Key.username] == strings.requiredField(strings.usernameLabel))
        #expect(model.fieldErrors[Key.password] == strings.requiredField(strings.passwordLabel))
        model.setValue("ann", for: Key.username)
        #expect(model.fieldErrors[Key.username] == nil)

        await model.submit([Key.username: "ann", Key.password: "wrong"])
        #expect(model.screen == .signIn)
        #expect(model.errorMessage == strings.incorrectCredentials)
        #expect(model.lastError == .notAuthorized("Incorrect username or password."))
        #expect(!model.isBusy)

        await model.submit([Key.username: " ann ", Key.password: "Passw0rd!"])
        expectSignedIn(model, as: "ann")
        #expect(await fake.state() == .signedIn(try #require(model.user)))

        await model.perform(.signOut)
        #expect(model.screen == .signIn)
        #expect(await fake.state() == .signedOut)
    }

    @Test func signUpValidatesTheAppsFieldsConfirmsAndSignsIn() async throws {
        let fake = FakeAuth()
        let model = AuthenticatorModel(
            auth: fake,
            signUpFields: [
                .email(), .password(), .confirmPassword(), .text("given_name"), .date("birthdate"),
                .phone(isRequired: false),
            ],
            usernameAttribute: .email)
        await model.start()
        await model.perform(.goToSignUp)
        #expect(model.screen == .signUp)
        #expect(
            model.fields.map(\.key) == ["email", Key.password, Key.confirmPassword, "given_name", "birthdate", "phone_number"])
        #expect(
            model.fields.map { $0.label(in: strings) } == [
                "Email", "Password", "Confirm password", "First name", "Date of birth", "Phone number",
            ])

        await model.submit([
            "email": "ann@example", Key.password: "Passw0rd!", Key.confirmPassword: "Passw0rd?", "given_name": "",
            "birthdate": "1990-02-30", "phone_number": "5551234",
        ])
        #expect(model.screen == .signUp)
        #expect(
            model.fieldErrors == [
                "email": strings.invalidEmail, Key.confirmPassword: strings.passwordsDoNotMatch,
                "given_name": strings.requiredField("First name"), "birthdate": strings.invalidDate,
                "phone_number": strings.invalidPhone,
            ])
        #expect(await fake.accounts.isEmpty)

        await model.submit([
            "email": "ann@example.com", Key.confirmPassword: "Passw0rd!", "given_name": "Ann", "birthdate": "1992-02-29",
            "phone_number": "",
        ])
        let delivery = CodeDelivery(destination: "ann@example.com", medium: .email, attributeName: "email")
        #expect(model.screen == .confirmSignUp(username: "ann@example.com", delivery: delivery))
        #expect(model.message == strings.codeSentTo("ann@example.com"))
        #expect(
            await fake.accounts["ann@example.com"]?.attributes == [
                "email": "ann@example.com", "given_name": "Ann", "birthdate": "1992-02-29",
            ])

        await model.perform(.resendCode)
        #expect(model.notice == strings.codeSentTo("ann@example.com"))
        await model.submit([Key.code: "abc"])
        #expect(model.fieldErrors[Key.code] == strings.invalidCode)
        await model.submit([Key.code: "000000"])
        #expect(model.errorMessage == strings.codeMismatch)
        #expect(model.notice == nil)

        await model.submit([Key.code: fake.code])
        expectSignedIn(model, as: "ann@example.com")
    }

    @Test func signUpOfAnExistingUserShowsTheBanner() async {
        let model = AuthenticatorModel(auth: FakeAuth(accounts: [FakeAuth.Account(username: "ann", password: "Passw0rd!")]))
        await model.start()
        await model.perform(.goToSignUp)
        #expect(model.fields.map(\.key) == [Key.username, "email", Key.password, Key.confirmPassword])
        await model.submit([
            Key.username: "ann", "email": "a@example.com", Key.password: "Passw0rd!", Key.confirmPassword: "Passw0rd!",
        ])
        #expect(model.screen == .signUp)
        #expect(model.errorMessage == strings.usernameExists)
        await model.perform(.goToSignIn)
        #expect(model.screen == .signIn && model.errorMessage == nil)
    }

    @Test func anUnconfirmedAccountIsConfirmedFromSignIn() async {
        let fake = FakeAuth()
        _ = try? await fake.signUp(
            username: "bo", password: "Passw0rd!", attributes: ["email": "bo@example.com"],
            validationData: [:], clientMetadata: [:])
        let model = AuthenticatorModel(auth: fake)
        await model.start()
        await model.submit([Key.username: "bo", Key.password: "Passw0rd!"])
        #expect(model.screen == .confirmSignUp(username: "bo", delivery: nil))
        #expect(model.message == strings.codeSent)
        await model.perform(.resendCode)
        #expect(
            model.screen
                == .confirmSignUp(
                    username: "bo", delivery: CodeDelivery(destination: "bo@example.com", medium: .email, attributeName: "email"))
        )
        await model.submit([Key.code: fake.code])
        expectSignedIn(model, as: "bo")
    }

    @Test func aTemporaryPasswordIsReplacedWithTheRequiredAttributes() async throws {
        let fake = FakeAuth(accounts: [FakeAuth.Account(username: "cy", password: "Temp0rary!", temporaryPassword: true)])
        let model = AuthenticatorModel(auth: fake)
        await model.start()
        await model.submit([Key.username: "cy", Key.password: "Temp0rary!"])
        #expect(model.screen == .newPassword(requiredAttributes: []))
        // A pool that requires given_name and a birthdate asks for them with the password.
        await model.handle(
            .newPasswordRequired(
                requiredAttributes: ["given_name", "birthdate"],
                session: ChallengeSession(challengeName: "NEW_PASSWORD_REQUIRED", username: "cy")))
        #expect(model.fields.map(\.key) == [Key.newPassword, Key.confirmPassword, "given_name", "birthdate"])
        #expect(model.fields.map(\.kind) == [.password, .confirmation(of: Key.newPassword), .text, .date])
        #expect(model.message == strings.newPasswordInstructions)

        await model.submit([
            Key.newPassword: "Chosen1!", Key.confirmPassword: "Chosen1!", "given_name": "Cy", "birthdate": "1980-13-01",
        ])
        #expect(model.fieldErrors == ["birthdate": strings.invalidDate])
        await model.submit(["birthdate": "1980-12-01"])
        expectSignedIn(model, as: "cy")
        let account = try #require(await fake.accounts["cy"])
        #expect(account.password == "Chosen1!" && !account.temporaryPassword)
        #expect(account.attributes == ["given_name": "Cy", "birthdate": "1980-12-01"])
    }

    @Test func aForgottenPasswordIsResetThenUsed() async {
        let fake = FakeAuth(accounts: [
            FakeAuth.Account(username: "di", password: "0ld-Passw0rd", attributes: ["phone_number": "+15551234567"])
        ])
        let model = AuthenticatorModel(auth: fake)
        await model.start()
        await model.perform(.goToForgotPassword)
        #expect(model.screen == .forgotPassword && model.fields.map(\.key) == [Key.username])
        await model.submit([Key.username: "di"])
        let delivery = CodeDelivery(destination: "+15551234567", medium: .sms, attributeName: "phone_number")
        #expect(model.screen == .confirmResetPassword(username: "di", delivery: delivery))
        #expect(model.fields.map(\.key) == [Key.code, Key.newPassword, Key.confirmPassword])
        #expect(model.message == strings.codeSentTo("+15551234567"))

        await model.perform(.back)
        #expect(model.screen == .forgotPassword)
        await model.submit([Key.username: "di"])
        await model.perform(.resendCode)
        #expect(model.notice == strings.codeSentTo("+15551234567"))
        await model.submit([Key.code: "111111", Key.newPassword: "New-Passw0rd", Key.confirmPassword: "New-Passw0rd"])
        #expect(model.errorMessage == strings.codeMismatch)
        await model.submit([Key.code: fake.code, Key.newPassword: "New-Passw0rd", Key.confirmPassword: "New-Passw0rd"])
        #expect(model.screen == .signIn)
        #expect(model.notice == strings.passwordChanged)
        #expect(model.value(of: Key.username) == "di" && model.value(of: Key.password) == "")

        await model.submit([Key.password: "New-Passw0rd"])
        expectSignedIn(model, as: "di")
    }

    @Test func anMFACodeCompletesTheSignIn() async {
        let fake = FakeAuth(accounts: [
            FakeAuth.Account(username: "ed", password: "Passw0rd!", attributes: ["email": "ed@example.com"], mfa: .email)
        ])
        let model = AuthenticatorModel(auth: fake)
        await model.start()
        await model.submit([Key.username: "ed", Key.password: "Passw0rd!"])
        #expect(model.screen == .mfaCode(MFACodeChallenge(kind: .email, destination: "ed@example.com")))
        #expect(model.message == strings.codeSentTo("ed@example.com"))
        #expect(model.fields.map(\.key) == [Key.code])
        await model.submit([Key.code: "999999"])
        #expect(model.errorMessage == strings.codeMismatch)
        #expect(model.screen == .mfaCode(MFACodeChallenge(kind: .email, destination: "ed@example.com")))
        await model.submit([Key.code: "123456"])
        expectSignedIn(model, as: "ed")
    }

    @Test func aSecondFactorIsChosenThenAnswered() async {
        let fake = FakeAuth(accounts: [
            FakeAuth.Account(
                username: "fay", password: "Passw0rd!", attributes: ["phone_number": "+15550001111"], mfaChoices: [.sms, .totp])
        ])
        let model = AuthenticatorModel(auth: fake)
        await model.start()
        await model.submit([Key.username: "fay", Key.password: "Passw0rd!"])
        #expect(model.screen == .mfaSelection([.sms, .totp]))
        #expect(model.submitTitle == nil && model.fields.isEmpty)
        #expect(model.choices.map(\.title) == ["Text message (SMS)", "Authenticator app"])
        await model.choose(.mfa(.totp))
        #expect(model.screen == .mfaCode(MFACodeChallenge(kind: .totp, destination: nil)))
        #expect(model.message == strings.mfaCodeFromApp)
        await model.submit([Key.code: fake.code])
        expectSignedIn(model, as: "fay")
    }

    @Test func anAuthenticatorAppIsSetUpAtSignIn() async throws {
        let fake = FakeAuth(accounts: [FakeAuth.Account(username: "gus", password: "Passw0rd!", mfaSetup: [.totp])])
        let model = AuthenticatorModel(auth: fake, totpIssuer: "Health")
        await model.start()
        await model.submit([Key.username: "gus", Key.password: "Passw0rd!"])
        let secret = try #require(model.totpSecret)
        #expect(model.totpSetupURI?.absoluteString == "otpauth://totp/Health:gus?secret=\(secret)&issuer=Health")
        #expect(model.message == strings.totpSetupInstructions)
        await model.submit([Key.code: "12345x"])
        #expect(model.fieldErrors[Key.code] == strings.invalidCode)
        await model.submit([Key.code: fake.code])
        expectSignedIn(model, as: "gus")
        #expect(await fake.accounts["gus"]?.mfa == .totp)
    }

    @Test func emailIsSetUpAsTheSecondFactorWithItsAddress() async {
        let fake = FakeAuth(accounts: [FakeAuth.Account(username: "hal", password: "Passw0rd!", mfaSetup: [.totp, .email])])
        let model = AuthenticatorModel(auth: fake)
        await model.start()
        await model.submit([Key.username: "hal", Key.password: "Passw0rd!"])
        #expect(model.screen == .mfaSetupSelection([.totp, .email]))
        #expect(model.choices.map(\.value) == [.mfaSetup(.totp), .mfaSetup(.email)])
        await model.choose(.mfaSetup(.email))
        #expect(model.screen == .mfaSetupEmail)
        await model.perform(.back)
        #expect(model.screen == .mfaSetupSelection([.totp, .email]))
        await model.choose(.mfaSetup(.email))
        await model.submit([Key.mfaEmail: "hal at example.com"])
        #expect(model.fieldErrors[Key.mfaEmail] == strings.invalidEmail)
        await model.submit([Key.mfaEmail: "hal@example.com"])
        #expect(model.screen == .mfaCode(MFACodeChallenge(kind: .email, destination: "hal@example.com")))
        await model.submit([Key.code: fake.code])
        expectSignedIn(model, as: "hal")
        #expect(await fake.accounts["hal"]?.mfa == .email)
        #expect(await fake.accounts["hal"]?.attributes["email"] == "hal@example.com")
    }

    @Test func choiceBasedSignInWithAnEmailedCode() async {
        let fake = FakeAuth(accounts: [
            FakeAuth.Account(
                username: "ivy", password: "Passw0rd!", attributes: ["email": "ivy@example.com"],
                firstFactors: [.password, .passwordSRP, .emailOTP, .webAuthn])
        ])
        let model = AuthenticatorModel(auth: fake, choiceBasedSignIn: true)
        await model.start()
        #expect(model.fields.map(\.key) == [Key.username])
        await model.submit([Key.username: "ivy"])
        // Passkeys need an authenticator; the password shows once.
        #expect(model.screen == .firstFactorSelection([.password, .emailOTP]))
        #expect(model.choices.map(\.title) == ["Password", "Code by email"])
        await model.choose(.firstFactor(.emailOTP))
        #expect(model.screen == .otpCode(CodeDelivery(destination: "ivy@example.com", medium: .email, attributeName: "email")))
        await model.submit([Key.code: "000000"])
        #expect(model.errorMessage == strings.codeMismatch)
        await model.submit([Key.code: fake.code])
        expectSignedIn(model, as: "ivy")
    }

    @Test func choiceBasedSignInWithThePassword() async {
        let fake = FakeAuth(accounts: [
            FakeAuth.Account(
                username: "jo", password: "Passw0rd!", attributes: ["email": "jo@example.com"],
                firstFactors: [.emailOTP, .password])
        ])
        let model = AuthenticatorModel(auth: fake, choiceBasedSignIn: true)
        await model.start()
        await model.submit([Key.username: "jo"])
        await model.choose(.firstFactor(.password))
        #expect(model.screen == .password)
        #expect(model.links.map(\.action) == [.goToForgotPassword, .back])
        await model.submit([Key.password: "nope"])
        #expect(model.errorMessage == strings.incorrectCredentials)
        await model.submit([Key.password: "Passw0rd!"])
        expectSignedIn(model, as: "jo")
    }

    @Test func aPINIsOfferedAfterSignInThenSignsIn() async throws {
        let fake = FakeAuth(accounts: [FakeAuth.Account(username: "kai", password: "Passw0rd!")])
        let model = AuthenticatorModel(auth: fake, offersPINRegistration: true)
        await model.start()
        await model.submit([Key.username: "kai", Key.password: "Passw0rd!"])
        #expect(model.screen == .registerPIN(policy: PinPolicy()))
        #expect(model.links.map(\.action) == [.skip])
        await model.submit([Key.pin: "12345", Key.confirmPIN: "12345"])
        #expect(model.fieldErrors[Key.pin] == strings.pinViolation(.sequence))
        await model.submit([Key.pin: "27193", Key.confirmPIN: "27139"])
        #expect(model.fieldErrors == [Key.confirmPIN: strings.pinsDoNotMatch])
        await model.submit([Key.pin: "27193", Key.confirmPIN: "27193"])
        expectSignedIn(model, as: "kai")
        let profiles = await fake.pinProfiles()
        #expect(profiles.map(\.username) == ["kai"])
        let profile = try #require(profiles.first)

        // Signed out, the PIN screen comes first.
        await model.signOut()
        #expect(model.screen == .pinSignIn(profiles: [profile], selected: profile))
        #expect(model.showsPINPad && model.choices.isEmpty)
        #expect(model.message == strings.pinSignInAs("kai"))
        for digit in [2, 7, 1, 9, 4, 4] { model.press(.digit(digit)) }
        model.press(.delete)
        #expect(model.value(of: Key.pin) == "27194")
        await model.submit()
        #expect(model.errorMessage == strings.incorrectPIN(2))
        #expect(model.value(of: Key.pin) == "")
        for digit in [2, 7, 1, 9, 3] { model.press(.digit(digit)) }
        await model.submit()
        expectSignedIn(model, as: "kai")  // no second offer: the PIN signed in

        // Password instead of the PIN, and back.
        await model.signOut()
        await model.perform(.usePassword)
        #expect(model.screen == .signIn)
        #expect(model.links.map(\.action) == [.goToForgotPassword, .goToSignUp, .usePIN])
        await model.perform(.usePIN)
        #expect(model.screen == .pinSignIn(profiles: [profile], selected: profile))
    }

    @Test func exhaustedPINAttemptsLeadToThePassword() async {
        let fake = FakeAuth(accounts: [FakeAuth.Account(username: "lu", password: "Passw0rd!")])
        let model = AuthenticatorModel(auth: fake, offersPINRegistration: true)
        await model.start()
        await model.submit([Key.username: "lu", Key.password: "Passw0rd!"])
        await model.submit([Key.pin: "27193", Key.confirmPIN: "27193"])
        await model.signOut()
        for _ in 0..<2 {
            await model.submit([Key.pin: "11223"])
            #expect(model.lastError.map { if case .incorrectPIN = $0 { true } else { false } } == true)
        }
        await model.submit([Key.pin: "11223"])
        #expect(model.screen == .signIn)
        #expect(model.errorMessage == strings.pinAttemptsExhausted)
        #expect(model.value(of: Key.username) == "lu")
        #expect(!model.links.contains { $0.action == .usePIN })
    }

    @Test func thePINOfferCanBeSkipped() async {
        let model = AuthenticatorModel(
            auth: FakeAuth(accounts: [FakeAuth.Account(username: "mo", password: "Passw0rd!")]),
            offersPINRegistration: true)
        await model.start()
        await model.submit([Key.username: "mo", Key.password: "Passw0rd!"])
        #expect(model.screen == .registerPIN(policy: PinPolicy()))
        await model.perform(.skip)
        expectSignedIn(model, as: "mo")
    }

    @Test func backFromAChallengeAbandonsTheSignIn() async {
        let fake = FakeAuth(accounts: [FakeAuth.Account(username: "ned", password: "Passw0rd!", mfa: .totp)])
        let model = AuthenticatorModel(auth: fake)
        await model.start()
        await model.submit([Key.username: "ned", Key.password: "Passw0rd!"])
        #expect(model.links.map(\.action) == [.back])
        await model.perform(.back)
        #expect(model.screen == .signIn)
        #expect(model.value(of: Key.username) == "ned" && model.value(of: Key.password) == "")
        #expect(await fake.state() == .signedOut)
    }

    @Test func aCustomChallengeIsAnswered() async {
        let fake = FakeAuth(accounts: [FakeAuth.Account(username: "quin", password: "Passw0rd!")])
        let model = AuthenticatorModel(auth: fake, customChallengeSignIn: true)
        await model.start()
        await model.submit([Key.username: "quin", Key.password: "Passw0rd!"])
        // The fake has no custom challenges: the call reached it, and its error is the banner.
        #expect(model.lastError == .unsupportedOperation("FakeAuth does not model custom challenges."))
        #expect(model.errorMessage == "FakeAuth does not model custom challenges.")

        await model.handle(
            .customChallenge(
                parameters: ["question": "colour"], session: ChallengeSession(challengeName: "CUSTOM_CHALLENGE", username: "quin")
            ))
        #expect(model.screen == .customChallenge(parameters: ["question": "colour"]))
        #expect(model.fields.map(\.key) == [Key.answer] && model.message == strings.customChallengePrompt)
        await model.submit()
        #expect(model.fieldErrors[Key.answer] == strings.requiredField(strings.answerLabel))
        await model.submit([Key.answer: "blue"])
        #expect(model.lastError == .unsupportedOperation("FakeAuth does not model custom challenges."))
        #expect(model.screen == .customChallenge(parameters: ["question": "colour"]))
    }

    @Test func aSecondSubmissionWhileBusyIsIgnored() async {
        let fake = FakeAuth(accounts: [FakeAuth.Account(username: "rae", password: "Passw0rd!")])
        let model = AuthenticatorModel(auth: fake, offersPINRegistration: true)
        await model.start()
        await model.submit([Key.username: "rae", Key.password: "Passw0rd!"])
        await model.submit([Key.pin: "27193", Key.confirmPIN: "27193"])
        await model.signOut()
        model.fill([Key.pin: "11223"])
        // A double tap: the second submission comes while the first one waits for the server.
        async let first: Void = model.submit()
        async let second: Void = model.submit()
        _ = await (first, second)
        #expect(model.errorMessage == strings.incorrectPIN(2))  // one attempt spent, not two
    }

    @Test func theModelFollowsTheAuthState() async throws {
        let fake = FakeAuth(accounts: [FakeAuth.Account(username: "ola", password: "Passw0rd!")], signedIn: "ola")
        let model = AuthenticatorModel(auth: fake)
        let following = Task { await model.run() }
        defer { following.cancel() }
        await model.waitUntil("the signed-in user") { $0.user?.username == "ola" }

        try await fake.signOut()  // elsewhere in the app
        await model.waitUntil("the sign-in screen") { $0.screen == .signIn }

        _ = try await fake.signIn(username: "ola", password: "Passw0rd!", flow: .srp, clientMetadata: [:])
        await model.waitUntil("the signed-in user again") { $0.isSignedIn }
        expectSignedIn(model, as: "ola")
    }

    @Test func theAppsStringsAreShown() async {
        var custom = AuthenticatorStrings()
        custom.signInTitle = "Anmelden"
        custom.usernameLabel = "Benutzername"
        custom.incorrectCredentials = "Falscher Benutzername oder falsches Passwort."
        custom.requiredField = { "\($0) fehlt." }
        let model = AuthenticatorModel(auth: FakeAuth(), strings: custom)
        await model.start()
        #expect(model.title == "Anmelden")
        #expect(model.fields.first?.label(in: model.strings) == "Benutzername")
        await model.submit([Key.password: "x"])
        #expect(model.fieldErrors[Key.username] == "Benutzername fehlt.")
        await model.submit([Key.username: "nobody"])
        #expect(model.errorMessage == "Falscher Benutzername oder falsches Passwort.")
    }
}
