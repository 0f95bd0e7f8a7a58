import CognateAuth
import Foundation
import Testing

@testable import CognateAuthUI

/// The pieces under the journeys: field checks, the error banner's wording, the theme's colors,
/// and the screens for states other than signed in or out.
@MainActor
struct PartsTests {
    let strings = AuthenticatorStrings()

    @Test func fieldsCheckWhatTheirKindTakes() {
        func problem(
            _ field: AuthenticatorField, _ value: String, _ values: [String: String] = [:], policy: PinPolicy? = nil
        ) -> String? {
            field.problem(with: value, values: values, strings: strings, pinPolicy: policy)
        }
        #expect(problem(.email(), "a@b.co") == nil)
        for bad in ["a@b", "@b.co", "a b@c.de", "a@b..co", "ab.co"] {
            #expect(problem(.email(), bad) == strings.invalidEmail, "\(bad)")
        }
        #expect(problem(.phone(), "+4915112345678") == nil)
        for bad in ["015112345678", "+49 151", "+1234567", "+1234567890123456"] {
            #expect(problem(.phone(), bad) == strings.invalidPhone, "\(bad)")
        }
        #expect(problem(.date("birthdate"), "2000-02-29") == nil)
        for bad in ["1900-02-29", "2001-04-31", "2001-4-01", "01-04-2001", "2001-00-10"] {
            #expect(problem(.date("birthdate"), bad) == strings.invalidDate, "\(bad)")
        }
        let code = AuthenticatorField(key: Key.code, kind: .code)
        #expect(problem(code, " 123456 ") == nil)
        #expect(problem(code, "12a456") == strings.invalidCode && problem(code, "123") == strings.invalidCode)
        #expect(problem(.text("nickname", isRequired: false), "") == nil)
        #expect(problem(.text("nickname"), "  ") == strings.requiredField("Nickname"))
        #expect(problem(.confirmPassword(), "x", [Key.password: "y"]) == strings.passwordsDoNotMatch)
        #expect(problem(.confirmPassword(), "", [Key.password: "y"]) == strings.requiredField("Confirm password"))
        let pin = AuthenticatorField(key: Key.pin, kind: .pin)
        #expect(problem(pin, "12a45") == strings.pinDigitsOnly)
        #expect(problem(pin, "1357", policy: PinPolicy()) == strings.pinViolation(.tooShort(minimum: 5)))
        #expect(problem(pin, "1357", policy: nil) == nil)
        #expect(AuthenticatorField.attribute("birthdate").kind == .date && AuthenticatorField.attribute("zoneinfo").kind == .text)
        #expect(AuthenticatorField.password().isSecure && !AuthenticatorField.email().isSecure)
        #expect(AuthenticatorField.text("custom:plan", label: "Plan").label(in: strings) == "Plan")
        #expect(AuthenticatorField.text("custom:plan").label(in: strings) == "custom:plan")
    }

    @Test func theBannerSaysWhatWentWrong() {
        #expect(strings.message(for: .notAuthorized("Incorrect username or password.")) == strings.incorrectCredentials)
        #expect(strings.message(for: .notAuthorized("Password attempts exceeded")) == strings.tooManyAttempts)
        #expect(
            strings.message(for: .notAuthorized("Invalid session for the user, session is expired.")) == strings.sessionTimedOut)
        #expect(strings.message(for: .notAuthorized("User is disabled.")) == "User is disabled.")
        #expect(strings.message(for: .userNotFound("User does not exist.")) == strings.incorrectCredentials)
        #expect(
            strings.message(for: .invalidPassword("Password must have symbol characters"))
                == "Password must have symbol characters")
        #expect(strings.message(for: .network(URLError(.notConnectedToInternet))) == strings.networkError)
        #expect(strings.message(for: .expiredCode("Invalid code provided, please request a code again.")) == strings.expiredCode)
        #expect(strings.message(for: .limitExceeded("Attempt limit exceeded")) == strings.tooManyAttempts)
        #expect(strings.message(for: .incorrectPIN(remainingAttempts: 1)) == "Incorrect PIN. 1 attempt left.")
        #expect(strings.message(for: .pinPolicyViolation([.blockListed])) == strings.pinViolation(.blockListed))
        #expect(strings.message(for: .pinAttemptsExhausted) == strings.pinAttemptsExhausted)
        #expect(strings.message(for: .invalidParameter("1 validation error detected")) == "1 validation error detected")
        #expect(strings.message(for: .notSignedIn) == AuthError.notSignedIn.localizedDescription)

        var custom = AuthenticatorStrings()
        custom.otherError = { _ in "Etwas ging schief." }
        #expect(custom.message(for: .invalidParameter("x")) == "Etwas ging schief.")
    }

    @Test func themeColorsAreHex() throws {
        let blue = try #require(AuthenticatorTheme.components(ofHex: "#2F6FEB"))
        #expect(blue.red == 0x2F / 255.0 && blue.green == 0x6F / 255.0 && blue.blue == 0xEB / 255.0 && blue.opacity == 1)
        let translucent = try #require(AuthenticatorTheme.components(ofHex: "00000080"))
        #expect(translucent.opacity == 0x80 / 255.0 && translucent.red == 0)
        #expect(AuthenticatorTheme.components(ofHex: "#fff")?.green == 1)
        #expect(AuthenticatorTheme.components(ofHex: "#12345") == nil && AuthenticatorTheme.components(ofHex: "red") == nil)
        let theme = AuthenticatorTheme()
        for color in [
            theme.primaryColor, theme.onPrimaryColor, theme.secondaryTextColor, theme.fieldBorderColor, theme.errorColor,
            theme.noticeColor,
        ] {
            #expect(AuthenticatorTheme.components(ofHex: color) != nil, "\(color)")
        }
    }

    @Test func anUnreadableStoreWaitsForARetry() async {
        let fake = FakeAuth()
        let model = AuthenticatorModel(auth: fake)
        await model.apply(.storageUnavailable)
        #expect(model.screen == .storageUnavailable)
        #expect(model.title == strings.storageUnavailableTitle && model.message == strings.storageUnavailableMessage)
        #expect(model.submitTitle == strings.retryButton && model.fields.isEmpty)
        await model.submit()  // the store is readable now: signed out
        #expect(model.screen == .signIn)
    }

    @Test func anExpiredSessionBringsTheSignInBackWithANotice() async {
        let fake = FakeAuth(accounts: [FakeAuth.Account(username: "pia", password: "Passw0rd!")], signedIn: "pia")
        let model = AuthenticatorModel(auth: fake)
        await model.start()
        expectSignedIn(model, as: "pia")
        await model.apply(.sessionExpired)
        #expect(model.screen == .signIn && model.notice == strings.sessionExpired)
        // Signed out during a journey changes nothing.
        await model.perform(.goToSignUp)
        await model.apply(.signedOut)
        #expect(model.screen == .signUp)
    }

    @Test func withoutSignUpTheLinkIsGone() async {
        let model = AuthenticatorModel(auth: FakeAuth(), usernameAttribute: .phoneNumber, offersSignUp: false)
        await model.start()
        #expect(model.links.map(\.action) == [.goToForgotPassword])
        #expect(model.fields.first?.kind == .phone && model.fields.first?.label(in: strings) == strings.phoneLabel)
        #expect(
            AuthenticatorModel.defaultSignUpFields(.phoneNumber).map(\.key) == [
                "phone_number", Key.password, Key.confirmPassword,
            ])
    }
}
