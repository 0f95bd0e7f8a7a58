import CognateAuth
import Foundation

/// Every text the Authenticator shows, in one table: English by default, each one replaceable
/// by the app (a translation, its own wording). The model and the views read nothing else.
///
/// ```swift
/// var strings = AuthenticatorStrings()
/// strings.signInTitle = String(localized: "Welcome back")
/// strings.attributeLabels["custom:member_id"] = String(localized: "Member number")
/// ```
public struct AuthenticatorStrings: Sendable {
    // MARK: Screen titles
    public var signInTitle = "Sign in"
    public var signUpTitle = "Create account"
    public var confirmSignUpTitle = "Confirm your account"
    public var newPasswordTitle = "Choose a new password"
    public var forgotPasswordTitle = "Reset your password"
    public var confirmResetPasswordTitle = "Choose a new password"
    public var mfaCodeTitle = "Enter your code"
    public var mfaSelectionTitle = "Choose how to verify"
    public var totpSetupTitle = "Set up your authenticator app"
    public var mfaSetupSelectionTitle = "Add a second factor"
    public var mfaSetupEmailTitle = "Email verification"
    public var firstFactorSelectionTitle = "Choose how to sign in"
    public var passwordTitle = "Enter your password"
    public var otpCodeTitle = "Enter your code"
    public var customChallengeTitle = "One more step"
    public var pinSignInTitle = "Enter your PIN"
    public var registerPINTitle = "Choose a PIN"
    public var storageUnavailableTitle = "Unlock your device"
    public var loadingTitle = "Loading"

    // MARK: Field labels
    public var usernameLabel = "Username"
    public var emailLabel = "Email"
    public var phoneLabel = "Phone number"
    public var passwordLabel = "Password"
    public var newPasswordLabel = "New password"
    public var confirmPasswordLabel = "Confirm password"
    public var codeLabel = "Code"
    public var answerLabel = "Answer"
    public var pinLabel = "PIN"
    public var confirmPINLabel = "Confirm PIN"
    /// Labels of user attributes (sign-up fields and a new password's required attributes);
    /// an attribute not listed shows its name.
    public var attributeLabels: [String: String] = [
        "email": "Email", "phone_number": "Phone number", "given_name": "First name", "family_name": "Last name",
        "name": "Full name", "middle_name": "Middle name", "nickname": "Nickname", "preferred_username": "Preferred username",
        "birthdate": "Date of birth", "address": "Address", "gender": "Gender", "locale": "Language",
        "zoneinfo": "Time zone", "website": "Website", "profile": "Profile page", "picture": "Picture",
    ]

    // MARK: Buttons and links
    public var signInButton = "Sign in"
    public var signUpButton = "Create account"
    public var confirmButton = "Confirm"
    public var continueButton = "Continue"
    public var sendCodeButton = "Send code"
    public var resetPasswordButton = "Reset password"
    public var submitPasswordButton = "Change password"
    public var registerPINButton = "Save PIN"
    public var retryButton = "Try again"
    public var signOutButton = "Sign out"
    public var goToSignUpLink = "No account? Create one"
    public var goToSignInLink = "Already have an account? Sign in"
    public var forgotPasswordLink = "Forgot your password?"
    public var resendCodeLink = "Send a new code"
    public var backLink = "Back"
    public var skipLink = "Not now"
    public var usePasswordLink = "Sign in with your password"
    public var usePINLink = "Sign in with your PIN"
    public var usePasskeyLink = "Sign in with a passkey"
    public var deletePINKey = "Delete"

    // MARK: Choices
    public var mfaKindNames: [MFACodeChallenge.Kind: String] = [
        .totp: "Authenticator app", .sms: "Text message (SMS)", .email: "Email",
    ]
    public var firstFactorNames: [FirstFactor: String] = [
        .password: "Password", .passwordSRP: "Password", .emailOTP: "Code by email", .smsOTP: "Code by text message",
        .webAuthn: "Passkey",
    ]
    public var pinProfileName: @Sendable (PINProfile) -> String = { $0.username }

    // MARK: Messages
    public var codeSentTo: @Sendable (String) -> String = { "We sent a code to \($0)." }
    public var codeSent = "We sent you a code."
    public var mfaCodeFromApp = "Enter the code your authenticator app shows."
    public var totpSetupInstructions =
        "Scan the QR code with your authenticator app, or enter the key below, then enter the code it shows."
    public var totpSecretLabel = "Key"
    public var mfaSetupEmailInstructions = "Enter the address your sign-in codes should go to."
    public var newPasswordInstructions = "Your account needs a new password before you continue."
    public var forgotPasswordInstructions = "Enter your username and we will send you a code."
    public var accountConfirmed = "Your account is confirmed. Please sign in."
    public var passwordChanged = "Your password was changed. Please sign in with it."
    public var sessionExpired = "Your session has ended. Please sign in again."
    public var storageUnavailableMessage =
        "Your account is stored securely on this device and can be read once it is unlocked."
    public var registerPINInstructions = "Sign in faster next time with a PIN on this device."
    public var pinSignInAs: @Sendable (String) -> String = { "Signed in before as \($0)." }
    public var customChallengePrompt = "Answer the question to continue."

    // MARK: Validation
    public var requiredField: @Sendable (String) -> String = { "\($0) is required." }
    public var invalidEmail = "Enter a valid email address."
    public var invalidPhone = "Enter the number with its country code, e.g. +15551234567."
    public var invalidDate = "Enter the date as YYYY-MM-DD."
    public var invalidCode = "Enter the code's digits."
    public var passwordsDoNotMatch = "The passwords do not match."
    public var pinsDoNotMatch = "The PINs do not match."
    public var pinDigitsOnly = "A PIN has digits only."
    public var pinViolation: @Sendable (PinPolicyViolation) -> String = { violation in
        switch violation {
        case .notDigits: "A PIN has digits only."
        case .tooShort(let minimum): "Use at least \(minimum) digits."
        case .tooLong(let maximum): "Use at most \(maximum) digits."
        case .sequence: "Avoid sequences such as 12345."
        case .tooManySimilarDigits(let maximum): "Use each digit at most \(maximum) times."
        case .blockListed: "This PIN is too easy to guess."
        }
    }

    // MARK: Errors (the banner)
    public var incorrectCredentials = "Incorrect username or password."
    public var userNotConfirmed = "Your account is not confirmed yet."
    public var usernameExists = "An account with this username already exists."
    public var aliasExists = "An account with this email or phone number already exists."
    /// The pool's password policy said no: Cognito's message names the rule.
    public var invalidPassword: @Sendable (String) -> String = { $0 }
    public var passwordReused = "Choose a password you have not used before."
    public var codeMismatch = "That code is not right. Please try again."
    public var expiredCode = "That code has expired. Ask for a new one."
    public var codeDeliveryFailure = "We could not send the code. Please try again later."
    public var tooManyAttempts = "Too many attempts. Please wait and try again later."
    public var userLambdaValidation: @Sendable (String) -> String = { $0 }
    public var networkError = "We could not reach the server. Check your connection and try again."
    public var sessionTimedOut = "This sign-in took too long. Please start again."
    public var incorrectPIN: @Sendable (Int) -> String = { left in
        "Incorrect PIN. \(left) attempt\(left == 1 ? "" : "s") left."
    }
    public var pinAttemptsExhausted = "Too many incorrect PINs. Sign in with your password."
    public var pinNotRegistered = "There is no PIN on this device. Sign in with your password."
    public var passkeyUnavailable = "Passkeys are not available here. Choose another way."
    public var storageError = "Your account could not be read on this device."
    /// Any other failure: Cognito's own message when there is one.
    public var otherError: @Sendable (AuthError) -> String = { error in
        let message = error.localizedDescription
        return message.isEmpty ? "Something went wrong. Please try again." : message
    }
    public var unexpectedError = "Something went wrong. Please try again."

    public init() {}

    /// The label of a user attribute.
    public func label(ofAttribute name: String) -> String { attributeLabels[name] ?? name }

    /// The banner's text for a failure.
    public func message(for error: AuthError) -> String {
        switch error {
        case .notAuthorized(let message):
            // One Cognito type for several failures: its message tells them apart.
            if message.localizedCaseInsensitiveContains("attempts exceeded") {
                tooManyAttempts
            } else if message.localizedCaseInsensitiveContains("session") {
                sessionTimedOut
            } else if message.localizedCaseInsensitiveContains("incorrect") {
                incorrectCredentials
            } else {
                otherError(error)
            }
        case .userNotFound: incorrectCredentials
        case .userNotConfirmed: userNotConfirmed
        case .usernameExists: usernameExists
        case .aliasExists: aliasExists
        case .invalidPassword(let message): invalidPassword(message)
        case .passwordHistoryPolicyViolation: passwordReused
        case .codeMismatch: codeMismatch
        case .expiredCode: expiredCode
        case .codeDeliveryFailure: codeDeliveryFailure
        case .tooManyFailedAttempts, .limitExceeded, .tooManyRequests: tooManyAttempts
        case .userLambdaValidation(let message): userLambdaValidation(message)
        case .network: networkError
        case .sessionExpired: sessionTimedOut
        case .incorrectPIN(let left): incorrectPIN(left)
        case .pinAttemptsExhausted: pinAttemptsExhausted
        case .pinNotRegistered: pinNotRegistered
        case .pinPolicyViolation(let violations): violations.first.map(pinViolation) ?? otherError(error)
        case .storage: storageError
        case .webAuthnNotEnabled, .authenticator: passkeyUnavailable
        default: otherError(error)
        }
    }
}
