import CognateProtocol
import Foundation

/// What a hosted page shows. `values`: what the user typed that is no secret (names and
/// attributes, never a password or a code), shown again when the page is refused; `rules`: the
/// pool's password policy in words.
public enum HostedPage: Sendable, Equatable {
    /// `notice`: what just happened (an account confirmed); `canSignUp`: whether the pool lets
    /// users sign themselves up (the page links to the sign-up page).
    case signIn(username: String?, name: HostedNameField, error: String?, notice: String? = nil, canSignUp: Bool = true)
    /// `attributes`: the pool's required attributes, asked besides the name and the password.
    case signUp(name: HostedNameField, attributes: [String], values: [String: String], rules: [String], error: String?)
    /// The sign-up code `destination` (masked) received; `resend` sends another.
    case confirmSignUp(destination: String?, error: String?, notice: String? = nil)
    /// The name of an account whose password was forgotten.
    case forgotPassword(name: HostedNameField, username: String?, error: String?)
    /// The reset code `destination` (masked) received, and the new password; `resend` sends another.
    case resetPassword(destination: String?, rules: [String], error: String?, notice: String? = nil)
    /// A second factor's code: `challenge` is SOFTWARE_TOKEN_MFA, SMS_MFA or EMAIL_OTP;
    /// `destination` where an SMS or email code went (masked).
    case code(challenge: String, destination: String?, error: String?)
    case newPassword(requiredAttributes: [String], values: [String: String], rules: [String], error: String?)
    /// MFA_SETUP: the new authenticator app's secret and its `otpauth://` URI (for a QR code).
    case totpSetup(secret: String, uri: String, error: String?)
    case selectFactor([String], error: String?)

    // Choice-based sign-in (``HostedChoiceSignIn``): `username` is the name as the user typed
    // it; `canChoose`: more than one factor is offered ("Choose another way").

    /// The first page: the account's name alone; the factors it may use come next.
    case signInName(username: String?, name: HostedNameField, error: String?, notice: String? = nil, canSignUp: Bool = true)
    /// The first factors offered (`WEB_AUTHN`, `EMAIL_OTP`, `SMS_OTP`, `PASSWORD`), one to choose.
    case chooseFactor([String], username: String, error: String?)
    /// The password, the factor chosen.
    case password(username: String, canChoose: Bool, error: String?)
    /// A passkey sign-in: `options` is the challenge's `PublicKeyCredentialRequestOptionsJSON`.
    case passkey(options: String, username: String, canChoose: Bool, error: String?)
    /// A one-time code that signs in alone (`challenge` EMAIL_OTP or SMS_OTP, eight digits),
    /// sent to `destination` (masked).
    case signInCode(challenge: String, destination: String?, username: String, canChoose: Bool, error: String?,
                    notice: String?)

    // `/passkeys/add` (``HostedPasskeyAddition``): `returnURL` is the app's redirect URI.

    /// A new passkey for `username`: `options` is `PublicKeyCredentialCreationOptionsJSON`.
    case addPasskey(options: String, username: String, returnURL: String, error: String?)
    /// The passkey was added.
    case passkeyAdded(username: String, returnURL: String)
}

/// The field that names the account, as the pool lets users name themselves.
public struct HostedNameField: Sendable, Equatable {
    public enum Kind: String, Sendable { case text, email, phone }
    /// "Username", "Email", "Phone number", "Username or email" …
    public var label: String
    public var kind: Kind

    public init(label: String, kind: Kind = .text) {
        self.label = label
        self.kind = kind
    }
}

/// Where a hosted sign-in stands after a step.
public enum HostedSignInStep: Sendable, Equatable {
    /// Show `page`; `flow` names the sign-in in progress (the form field and the flow cookie);
    /// `request` is the authorization request it answers (for links between the pages).
    case page(HostedPage, flow: String, request: AuthorizationRequest)
    /// Done: send the browser to this address (the app's redirect URI with the code, or with
    /// the tokens in the fragment for the implicit flow).
    case redirect(String)
    /// The user just signed in: keep the single sign-on `session` (``HostedSessions``) and
    /// `proof` (a ``RecentSignIns`` seal, for `/passkeys/add`) in the browser, then take the
    /// step `then`.
    indirect case signedIn(proof: String?, session: String?, then: HostedSignInStep)
}
