/// How a sign-in is answered. `.srp` proves the password without sending it (Cognito's
/// `USER_SRP_AUTH`); `.password` sends it over TLS (`USER_PASSWORD_AUTH`, which the app client
/// must allow; needed for users migrated by a Lambda).
public enum SignInFlow: Sendable, Equatable {
    case srp
    case password
}

/// Where a sign-in (or an answer to one of its challenges) stands.
public enum SignInStep: Sendable, Equatable {
    /// Done: tokens are stored and the auth state is `signedIn` (or still
    /// `registrationIncomplete` while a ``RegistrationFlow`` runs).
    case signedIn(AuthUser)
    /// The user has a temporary password (created by an administrator): call
    /// ``AuthClient/confirmSignIn(newPassword:attributes:)`` with a new one and values for
    /// `requiredAttributes` (attribute names, e.g. `given_name`).
    case newPasswordRequired(requiredAttributes: [String], session: ChallengeSession)
    /// The account is not confirmed: ``AuthClient/confirmSignUp(username:code:)`` (after
    /// ``AuthClient/resendSignUpCode(username:)`` if the code was lost), then sign in again.
    case confirmSignUp(username: String)
    /// An administrator requires a new password: a code was sent; complete with
    /// ``AuthClient/confirmForgotPassword(username:code:newPassword:)`` (or send a new code
    /// with ``AuthClient/forgotPassword(username:)``).
    case resetPassword(username: String)
    /// A multi-factor code is required: ``AuthClient/confirmSignIn(mfaCode:)``.
    case mfaCode(MFACodeChallenge)
    /// The user has several second factors and prefers none: let the user pick one of `kinds`
    /// and answer with ``AuthClient/confirmSignIn(mfaType:)``; a code challenge follows.
    case mfaSelection([MFACodeChallenge.Kind])
    /// The pool requires MFA and the user has no authenticator app yet: show the secret (or a
    /// QR code of its URI), then answer with a code the app shows,
    /// ``AuthClient/confirmSignIn(mfaCode:)``.
    case totpSetup(TOTPSetup)
    /// The pool requires MFA, the user has no second factor yet, and the pool offers more than
    /// one to set up, or email alone, which needs an address (Cognito's `MFA_SETUP` with
    /// `MFAS_CAN_SETUP`, e.g. the authenticator app and email): let the user pick one of `kinds` and answer with
    /// ``AuthClient/confirmSignIn(mfaSetup:email:clientMetadata:)`` — `.totp` leads to
    /// ``totpSetup(_:)``, `.email` (with the address the codes go to) to an emailed code,
    /// ``mfaCode(_:)``.
    case mfaSetupSelection([MFACodeChallenge.Kind])
    /// The pool's own challenge (CUSTOM_AUTH: its CreateAuthChallenge function made it; a
    /// question, a one-time code sent elsewhere …): show what `parameters` say and answer with
    /// ``AuthClient/confirmSignIn(challengeResponse:clientMetadata:)``.
    case customChallenge(parameters: [String: String], session: ChallengeSession)
    /// Choice-based sign-in (``AuthClient/signIn(username:preferred:clientMetadata:)``): let the
    /// user pick one of the factors offered, in the pool's order, and answer with
    /// ``AuthClient/confirmSignIn(firstFactor:clientMetadata:)`` (or, for the password, directly
    /// with ``AuthClient/confirmSignIn(password:clientMetadata:)``).
    case firstFactorSelection([FirstFactor])
    /// The password is the chosen first factor: ask for it and answer with
    /// ``AuthClient/confirmSignIn(password:clientMetadata:)``.
    case passwordRequired
    /// A one-time code was sent as the first factor (by email or SMS, see the delivery): answer
    /// with ``AuthClient/confirmSignIn(otpCode:clientMetadata:)``.
    case otpCode(CodeDelivery)
    /// A passkey is the first factor: answer with ``AuthClient/confirmSignIn(passkey:clientMetadata:)``,
    /// which has the authenticator sign the server's challenge.
    case passkeyRequired(PasskeyRequest)
}

/// A challenge the server is waiting for. Valid for a few minutes (the pool's auth session
/// validity); the client keeps the latest one to answer it.
///
/// The server's session token travels with it but is not part of the public API, nor of its
/// descriptions (`print`, `dump`, debugger): it is a bearer secret for the next answer.
public struct ChallengeSession: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// `NEW_PASSWORD_REQUIRED`, `SMS_MFA` …
    public var challengeName: String
    /// The internal username the answer must name.
    public var username: String
    /// Attributes the user has now (NEW_PASSWORD_REQUIRED shows them so a form can be prefilled).
    public var currentAttributes: [String: String]
    /// The opaque session token of the challenge.
    var session: String?
    /// The challenge's parameters (a passkey challenge's request options).
    var parameters: [String: String] = [:]
    /// SELECT_CHALLENGE: the first factors offered, and the password factor chosen (a
    /// ``SignInStep/passwordRequired`` step waiting for the password).
    var offeredFactors: [FirstFactor] = []
    var chosenFactor: FirstFactor?
    /// The name the user signed in with (the account's steps name it, not the internal username).
    var signInName: String?
    /// MFA_SETUP: the factors the pool offers to set up, and whether an authenticator app was
    /// associated with the session (its code then completes the set-up).
    var setupOptions: [MFACodeChallenge.Kind] = []
    var totpAssociated = false

    /// A challenge without a server session, for fakes of ``AuthProviding`` in app tests.
    public init(challengeName: String, username: String, currentAttributes: [String: String] = [:]) {
        self.init(challengeName: challengeName, username: username, currentAttributes: currentAttributes, session: nil)
    }

    init(challengeName: String, username: String, currentAttributes: [String: String], session: String?) {
        self.challengeName = challengeName
        self.username = username
        self.currentAttributes = currentAttributes
        self.session = session
    }

    public var description: String { "ChallengeSession(\(challengeName), username: \(username))" }

    public var customMirror: Mirror {
        Mirror(self, children: ["challengeName": challengeName, "username": username, "currentAttributes": currentAttributes])
    }
}

/// A multi-factor code challenge.
public struct MFACodeChallenge: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Equatable, Codable {
        case sms = "SMS_MFA"
        case totp = "SOFTWARE_TOKEN_MFA"
        case email = "EMAIL_OTP"
    }

    public var kind: Kind
    /// Where the code went (nil for authenticator apps).
    public var destination: String?

    public init(kind: Kind, destination: String?) {
        self.kind = kind
        self.destination = destination
    }
}
