/// Where a ``RegistrationFlow`` stands: what the app should show next.
public enum RegistrationStep: Sendable, Equatable, Codable {
    /// Step 1: collect the sign-in name, password and sign-up attributes. `missingAttributes`
    /// names attributes the pool required that the last attempt lacked (empty at first).
    case signUp(missingAttributes: [String])
    /// Step 2: ask for the code sent to `delivery`. `previousCodeExpired` is true when the
    /// flow just sent a new code because the typed one had expired (tell the user).
    case confirmSignUp(username: String, delivery: CodeDelivery?, previousCodeExpired: Bool)
    /// The account is confirmed; ask for the password (it is never stored, so after a restart
    /// the user types it again).
    case signIn(username: String)
    /// The account exists and is confirmed, but the password did not match: offer "Forgot your
    /// password?" (``RegistrationFlow/requestPasswordReset()``) or another try
    /// (``RegistrationFlow/signIn(password:)``).
    case forgotPassword(username: String)
    /// A reset code was sent: ask for it and a new password.
    case resetPassword(username: String, delivery: CodeDelivery?)
    /// An administrator created the account: choose a password and give these attributes.
    case newPasswordRequired(username: String, requiredAttributes: [String])
    /// The sign-in asks for a second factor (a pool with MFA): show what `challenge` says and
    /// answer with ``RegistrationFlow/confirmSecondFactor(code:)``,
    /// ``RegistrationFlow/chooseSecondFactor(_:)`` or ``RegistrationFlow/setUpSecondFactor(_:email:)``.
    /// Not kept over a restart (the sign-in's session lives in memory): it resumes as `.signIn`.
    case secondFactor(username: String, challenge: SecondFactorChallenge)
    /// A custom registration (``RegistrationFlow/startCustomRegistration(data:)``): the pool's
    /// function asks something; show what `data` says and answer with
    /// ``RegistrationFlow/answerCustomChallenge(_:)``. Not kept over a restart (the challenge's
    /// session lives in memory): the flow resumes at `.signUp`.
    case customChallenge(data: String?)
    /// Step 3: signed in; the profile lacks these attributes (pool-required ones the server
    /// revealed, plus those the app declared required).
    case needsProfile(missing: [String])
    /// Registration is finished and the user is signed in.
    case complete
}

/// What a sign-in during registration asks for as its second factor.
public enum SecondFactorChallenge: Sendable, Equatable, Codable {
    /// A code sent by SMS or email, or shown by the authenticator app.
    case code(MFACodeChallenge)
    /// The user chooses which factor to use.
    case choice([MFACodeChallenge.Kind])
    /// The pool requires MFA and the user has none: choose one to set up (an email address is
    /// asked for with `.email`).
    case setUpChoice([MFACodeChallenge.Kind])
    /// An authenticator app to set up: show the secret (or its QR code), then answer with a code.
    case totpSetup(secret: String)
}

/// A flow's progress as kept in the ``TokenStore`` (never the password).
public struct RegistrationProgress: Sendable, Equatable, Codable {
    public var step: RegistrationStep
    /// The sign-in name the user registered with.
    public var username: String?
    /// The account's `sub`, once known (from the sign-up's answer or a sign-in): another
    /// profile that signs the same account in continues this one.
    public var userSub: String?
    /// Attributes the server showed to be required by the pool.
    public var learnedRequiredAttributes: [String]

    public init(step: RegistrationStep, username: String?, userSub: String? = nil, learnedRequiredAttributes: [String]) {
        self.step = step
        self.username = username
        self.userSub = userSub
        self.learnedRequiredAttributes = learnedRequiredAttributes
    }
}
