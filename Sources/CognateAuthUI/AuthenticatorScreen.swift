import CognateAuth
import Foundation

/// Where the Authenticator stands: the screen it shows. Each case carries what its screen
/// displays; the inputs are ``AuthenticatorModel/fields``.
public enum AuthenticatorScreen: Sendable, Equatable {
    /// The first auth state has not arrived yet.
    case loading
    /// Username and password (username only with choice-based sign-in).
    case signIn
    /// The app's ``AuthenticatorModel/signUpFields``.
    case signUp
    /// The code sent at sign-up (or to an account that was never confirmed).
    case confirmSignUp(username: String, delivery: CodeDelivery?)
    /// An account made by an administrator: a new password and the attributes the pool requires.
    case newPassword(requiredAttributes: [String])
    /// The username whose password is to be reset.
    case forgotPassword
    /// The reset code and the new password.
    case confirmResetPassword(username: String, delivery: CodeDelivery?)
    /// A second factor's code.
    case mfaCode(MFACodeChallenge)
    /// The user's second factors, to pick one.
    case mfaSelection([MFACodeChallenge.Kind])
    /// An authenticator app to add: its key, and the `otpauth:` address for a QR code.
    case totpSetup(secret: String, uri: URL?)
    /// The second factors the pool offers to set up.
    case mfaSetupSelection([MFACodeChallenge.Kind])
    /// The address email codes should go to (email chosen as the second factor to set up).
    case mfaSetupEmail
    /// Choice-based sign-in: the first factors offered.
    case firstFactorSelection([FirstFactor])
    /// Choice-based sign-in: the password, chosen as the first factor.
    case password
    /// Choice-based sign-in: the one-time code sent as the first factor.
    case otpCode(CodeDelivery)
    /// The pool's own challenge (CUSTOM_AUTH) and its parameters.
    case customChallenge(parameters: [String: String])
    /// Sign-in with a PIN on this device, for one of the profiles that have one.
    case pinSignIn(profiles: [PINProfile], selected: PINProfile)
    /// Signed in with a password: offer a PIN for next time.
    case registerPIN(policy: PinPolicy?)
    /// The store cannot be read yet (a launch before the first unlock).
    case storageUnavailable
    /// Done: the app's content takes over.
    case signedIn(AuthUser)
}

/// A secondary action of a screen (a link under its form), or the form's submission.
public enum AuthenticatorAction: Sendable, Equatable, Hashable {
    case submit
    case back
    case goToSignUp
    case goToSignIn
    case goToForgotPassword
    case resendCode
    /// Leaves the PIN screen for the password.
    case usePassword
    /// Leaves the password for the PIN screen (when a profile has a PIN).
    case usePIN
    /// Signs the named user in with a passkey (when the app gave a passkey authenticator).
    case usePasskey
    /// Skips an optional step (PIN registration).
    case skip
    /// Reads the store again (``AuthenticatorScreen/storageUnavailable``).
    case retry
    case signOut
}

/// A link of the current screen: its text and its action.
public struct AuthenticatorLink: Sendable, Equatable, Identifiable {
    public var title: String
    public var action: AuthenticatorAction
    public var id: AuthenticatorAction { action }
}

/// One option of a selection screen (a second factor, a first factor, a PIN profile).
public struct AuthenticatorChoice: Sendable, Equatable, Identifiable {
    public enum Value: Sendable, Equatable, Hashable {
        case mfa(MFACodeChallenge.Kind)
        case mfaSetup(MFACodeChallenge.Kind)
        case firstFactor(FirstFactor)
        case pinProfile(String)
    }

    public var title: String
    public var value: Value
    /// Whether it is the one in use (the PIN profile signing in).
    public var isSelected: Bool
    public var id: Value { value }
}

/// A key of the PIN pad.
public enum PINPadKey: Sendable, Equatable, Hashable {
    case digit(Int)
    case delete
}
