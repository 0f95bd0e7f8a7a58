import Foundation

/// The registration journey — sign up → confirm the code → sign in → complete the profile — as
/// a resumable state machine (docs/sdk.md, "The registration journey in code").
///
/// Each call returns the next ``RegistrationStep``; errors the user must see (wrong code,
/// password policy, a pre-sign-up check's message) are thrown as ``AuthError`` and leave the
/// step unchanged. Progress is kept in the client's ``TokenStore`` (except the password, which
/// stays in memory), so after the app is killed a new flow over a new ``AuthClient`` on the
/// same store continues with ``resume()`` — at the code step, for instance.
///
/// Branches handled for the app:
/// - the username exists → sign in with the typed password instead (unconfirmed → code step;
///   wrong password → `notAuthorized` thrown at step 1); the account's data then stays in the
///   one profile of the store that holds this user (by `sub`, see ``AuthClient/profile``);
/// - not confirmed → code step; an expired code → a new code is sent, code step again;
/// - the code was confirmed already ("Current status is CONFIRMED") → on to signing in; any
///   other refusal of the code (a wrong secret hash …) is thrown;
/// - the code is accepted but the password no longer matches ("Incorrect username or
///   password.") → ``RegistrationStep/forgotPassword(username:)``;
/// - the pool requires attributes the sign-up lacked → ``RegistrationStep/signUp(missingAttributes:)``;
/// - an administrator-created account → ``RegistrationStep/newPasswordRequired(username:requiredAttributes:)``;
/// - a pool with MFA → ``RegistrationStep/secondFactor(username:challenge:)`` (a code, a choice,
///   or setting a factor up where the pool requires one) until the sign-in completes;
/// - a custom registration instead of step 1 (``startCustomRegistration(data:)``): the pool's
///   function's challenges (``RegistrationStep/customChallenge(data:)``) until it creates the
///   account, which is signed in at once — its ``customInformation`` is the function's;
/// - signed in with an incomplete profile → ``RegistrationStep/needsProfile(missing:)`` until
///   ``completeProfile(_:)`` supplies everything, then ``RegistrationStep/complete``. What
///   "complete" means is the pool's required attributes, the app's `requiredAttributes`, and —
///   for apps that keep the profile in their own backend — its `profileCheck`.
public actor RegistrationFlow {
    public nonisolated let client: AuthClient
    /// Attributes the app requires in a complete profile (e.g. `given_name`, `birthdate`,
    /// `custom:accepted_tos`), in the order to ask for them.
    public nonisolated let requiredAttributes: [String]
    public nonisolated let signInFlow: SignInFlow
    /// Sent with every call of the flow that Cognito passes to Lambda triggers.
    public nonisolated let clientMetadata: [String: String]
    /// The app's own test of a complete profile, for apps that keep it in their own backend:
    /// given the user's attributes, the names of what is still missing (asked for at
    /// `.needsProfile`, whose answer the app stores where it keeps them). Nil: attributes only.
    public nonisolated let profileCheck: (@Sendable ([String: String]) async throws -> [String])?

    public private(set) var step: RegistrationStep = .signUp(missingAttributes: [])
    private var username: String?
    private var userSub: String?
    /// The password typed at step 1, kept only until the sign-in that follows the code: dropped
    /// after every other sign-in and at every terminal step (a password in memory is one more
    /// thing a memory dump or a crash report could show).
    private var password: String?
    private var learnedRequired: [String] = []
    /// What the pool's CustomRegistration function returned with the account it created (a
    /// custom registration's result for the app), until ``cancel()``.
    public private(set) var customInformation: String?

    public init(
        client: AuthClient, requiredAttributes: [String] = [], signInFlow: SignInFlow = .srp,
        clientMetadata: [String: String] = [:],
        profileCheck: (@Sendable ([String: String]) async throws -> [String])? = nil
    ) {
        self.client = client
        self.requiredAttributes = requiredAttributes
        self.signInFlow = signInFlow
        self.clientMetadata = clientMetadata
        self.profileCheck = profileCheck
    }

    /// Continues from the stored progress. Without any, a signed-in user's profile is checked
    /// (the launch check: `.complete`, or `.needsProfile` if attributes are missing); otherwise
    /// the flow starts at `.signUp`. A pending new-password challenge does not survive a
    /// restart: that step resumes as `.signIn`, as does `.needsProfile` when the session is gone.
    public func resume() async throws -> RegistrationStep {
        guard let progress = try await client.registrationProgress() else {
            if try await client.hasTokens() { return try await checkProfile() }
            step = .signUp(missingAttributes: [])
            return step
        }
        username = progress.username
        userSub = progress.userSub
        learnedRequired = progress.learnedRequiredAttributes
        step = progress.step
        switch progress.step {
        case .newPasswordRequired(let name, _):
            return try await move(to: .signIn(username: name))
        case .needsProfile:
            if try await client.hasTokens() { return step }
            return try await move(to: username.map { .signIn(username: $0) } ?? .signUp(missingAttributes: []))
        default:
            return step
        }
    }

    /// Step 1: registers the user (see the type's notes for the branches).
    /// - Parameter validationData: for the pool's pre-sign-up Lambda trigger (Amazon Cognito).
    public func signUp(
        username: String, password: String, attributes: [String: String] = [:], validationData: [String: String] = [:]
    ) async throws -> RegistrationStep {
        try expect("signUp") { if case .signUp = $0 { true } else { false } }
        self.username = username
        self.password = password
        do {
            let result = try await client.signUp(
                username: username, password: password, attributes: attributes, validationData: validationData,
                clientMetadata: clientMetadata)
            userSub = result.userSub
            switch result.nextStep {
            case .confirmSignUp(let delivery):
                return try await move(to: .confirmSignUp(username: username, delivery: delivery, previousCodeExpired: false))
            case .done, .completeAutoSignIn:
                return try await signIn(with: password, afterConfirmation: false)
            }
        } catch AuthError.usernameExists {
            return try await signIn(with: password, afterConfirmation: false)
        } catch AuthError.userNotConfirmed {
            return try await move(to: .confirmSignUp(username: username, delivery: nil, previousCodeExpired: false))
        } catch AuthError.expiredCode {
            return try await sendNewCodeAfterExpiry(username)
        } catch AuthError.invalidParameter(let message)
            where !RequiredAttributeMessage.attributeNames(in: message).isEmpty
        {
            let missing = RequiredAttributeMessage.attributeNames(in: message)
            learn(missing)
            return try await move(to: .signUp(missingAttributes: missing))
        }
    }

    /// Instead of step 1: a custom registration (Cognate's own, docs/sdk.md "Custom
    /// registration"). `data` goes to the pool's CustomRegistration function; its challenges
    /// come as ``RegistrationStep/customChallenge(data:)``, and once it creates the account
    /// the user is signed in (no password: register a PIN or a passkey next) and the profile
    /// is checked as after any sign-in.
    public func startCustomRegistration(data: String? = nil) async throws -> RegistrationStep {
        try expect("startCustomRegistration") { if case .signUp = $0 { true } else { false } }
        return try await continueAfter(
            try await client.startCustomRegistration(data: data, clientMetadata: clientMetadata))
    }

    /// Answers ``RegistrationStep/customChallenge(data:)``. Any refusal (the function's, an
    /// expired challenge, a name taken) is thrown and the flow is back at `.signUp`, the
    /// challenge being used up; a `network` error leaves the step as it was, to answer again.
    public func answerCustomChallenge(_ data: String?) async throws -> RegistrationStep {
        guard case .customChallenge = step else { throw invalidStep("answerCustomChallenge") }
        do {
            return try await continueAfter(
                try await client.respondToCustomRegistration(data: data, clientMetadata: clientMetadata))
        } catch let error as AuthError {
            if case .network = error { throw error }
            _ = try await move(to: .signUp(missingAttributes: []))
            throw error
        }
    }

    /// Step 2: confirms the code, then signs in with the password typed at step 1 (after a
    /// restart, moves to `.signIn` to ask for it). An expired code makes the flow send a new
    /// one and stay at this step with `previousCodeExpired`.
    public func confirm(code: String) async throws -> RegistrationStep {
        let name = try currentUsername(at: "confirm") { if case .confirmSignUp = $0 { true } else { false } }
        do {
            try await client.confirmSignUp(username: name, code: code, clientMetadata: clientMetadata)
        } catch AuthError.expiredCode {
            return try await sendNewCodeAfterExpiry(name)
        } catch AuthError.notAuthorized(let message) where NotAuthorizedReason(message: message) == .alreadyConfirmed {
            // Confirmed already (on another device, or by an administrator): go on.
            await client.forgetCode(.signUp(username: name))
        }
        guard let password else { return try await move(to: .signIn(username: name)) }
        return try await signIn(with: password, afterConfirmation: true)
    }

    /// Sends a new sign-up code (step 2's "resend").
    public func resendCode() async throws -> RegistrationStep {
        let name = try currentUsername(at: "resendCode") { if case .confirmSignUp = $0 { true } else { false } }
        let delivery = try await client.resendSignUpCode(username: name, clientMetadata: clientMetadata)
        return try await move(to: .confirmSignUp(username: name, delivery: delivery, previousCodeExpired: false))
    }

    /// Signs in with the password (at `.signIn` and `.forgotPassword`). A wrong password moves
    /// `.signIn` to `.forgotPassword`; at `.forgotPassword` it throws `notAuthorized`, as every
    /// other refusal.
    public func signIn(password: String) async throws -> RegistrationStep {
        let atForgot: Bool
        switch step {
        case .signIn: atForgot = false
        case .forgotPassword: atForgot = true
        default: throw invalidStep("signIn(password:)")
        }
        self.password = password
        return try await signIn(with: password, afterConfirmation: !atForgot)
    }

    /// Sends a password-reset code (at `.forgotPassword`, `.signIn` or `.resetPassword`).
    public func requestPasswordReset() async throws -> RegistrationStep {
        let name = try currentUsername(at: "requestPasswordReset") {
            switch $0 {
            case .forgotPassword, .signIn, .resetPassword: true
            default: false
            }
        }
        let delivery = try await client.forgotPassword(username: name, clientMetadata: clientMetadata)
        return try await move(to: .resetPassword(username: name, delivery: delivery))
    }

    /// Sets a new password with the reset code, then signs in.
    public func confirmPasswordReset(code: String, newPassword: String) async throws -> RegistrationStep {
        let name = try currentUsername(at: "confirmPasswordReset") { if case .resetPassword = $0 { true } else { false } }
        try await client.confirmForgotPassword(
            username: name, code: code, newPassword: newPassword, clientMetadata: clientMetadata)
        return try await signIn(with: newPassword, afterConfirmation: false)
    }

    /// Answers `.newPasswordRequired` with the user's password and the required attributes.
    public func setNewPassword(_ newPassword: String, attributes: [String: String] = [:]) async throws
        -> RegistrationStep
    {
        guard case .newPasswordRequired = step else { throw invalidStep("setNewPassword") }
        do {
            let next = try await client.confirmSignIn(
                newPassword: newPassword, attributes: attributes, clientMetadata: clientMetadata)
            password = nil
            return try await continueAfter(next)
        } catch AuthError.invalidParameter(let message)
            where !RequiredAttributeMessage.attributeNames(in: message).isEmpty
        {
            learn(RequiredAttributeMessage.attributeNames(in: message))
            throw AuthError.invalidParameter(message)
        }
    }

    /// Answers `.secondFactor(.code)` (and `.totpSetup`, with a code the new authenticator app
    /// shows). A wrong code throws and leaves the step as it was.
    public func confirmSecondFactor(code: String) async throws -> RegistrationStep {
        guard case .secondFactor(_, let challenge) = step else { throw invalidStep("confirmSecondFactor") }
        switch challenge {
        case .code, .totpSetup: break
        default: throw invalidStep("confirmSecondFactor")
        }
        return try await continueAfter(try await client.confirmSignIn(mfaCode: code, clientMetadata: clientMetadata))
    }

    /// Answers `.secondFactor(.choice)` with the factor to use.
    public func chooseSecondFactor(_ kind: MFACodeChallenge.Kind) async throws -> RegistrationStep {
        guard case .secondFactor(_, .choice) = step else { throw invalidStep("chooseSecondFactor") }
        return try await continueAfter(try await client.confirmSignIn(mfaType: kind, clientMetadata: clientMetadata))
    }

    /// Answers `.secondFactor(.setUpChoice)`: `.totp` (an authenticator app: `.totpSetup`
    /// follows) or `.email` with the address to send codes to (a code follows).
    public func setUpSecondFactor(_ kind: MFACodeChallenge.Kind, email: String? = nil) async throws -> RegistrationStep {
        guard case .secondFactor(_, .setUpChoice) = step else { throw invalidStep("setUpSecondFactor") }
        return try await continueAfter(
            try await client.confirmSignIn(mfaSetup: kind, email: email, clientMetadata: clientMetadata))
    }

    /// Step 3: writes profile attributes, then checks the profile again. On completion the
    /// session is refreshed first, so the `signedIn` state carries an ID token with the profile.
    public func completeProfile(_ attributes: [String: String]) async throws -> RegistrationStep {
        guard case .needsProfile = step else { throw invalidStep("completeProfile") }
        if !attributes.isEmpty { try await client.updateUserAttributes(attributes, clientMetadata: clientMetadata) }
        return try await checkProfile(refreshingWhenComplete: true)
    }

    /// Checks the profile again at `.needsProfile`, after the app stored what was missing in its
    /// own backend (its `profileCheck` then finds it there).
    public func recheckProfile() async throws -> RegistrationStep {
        try await completeProfile([:])
    }

    /// Abandons the registration: forgets its progress (tokens, if any, stay).
    public func cancel() async throws {
        if let username { try await client.discardPendingCode(.signUp(username: username)) }
        username = nil
        userSub = nil
        password = nil
        learnedRequired = []
        customInformation = nil
        step = .signUp(missingAttributes: [])
        try await client.saveRegistration(nil)
    }

    // MARK: - Transitions

    /// Signs in and continues. `afterConfirmation`: a wrong password means the account was
    /// confirmed earlier with another password → `.forgotPassword`; otherwise it is thrown.
    /// The password is dropped after the sign-in, kept only when it leads to the code step (an
    /// unconfirmed account), whose confirmation signs in with it.
    private func signIn(with password: String, afterConfirmation: Bool) async throws -> RegistrationStep {
        guard let name = username else { throw invalidStep("signIn") }
        let step: SignInStep
        do {
            step = try await client.signIn(username: name, password: password, flow: signInFlow, clientMetadata: clientMetadata)
        } catch AuthError.notAuthorized(let message)
            where afterConfirmation && NotAuthorizedReason(message: message) == .incorrectCredentials
        {
            self.password = nil
            return try await move(to: .forgotPassword(username: name))
        } catch {
            self.password = nil
            throw error
        }
        if case .confirmSignUp = step {} else { self.password = nil }
        return try await continueAfter(step)
    }

    private func continueAfter(_ signIn: SignInStep) async throws -> RegistrationStep {
        let name = username ?? ""
        switch signIn {
        case .signedIn(let user):
            userSub = user.userId
            return try await checkProfile()
        case .confirmSignUp:
            return try await move(to: .confirmSignUp(username: name, delivery: nil, previousCodeExpired: false))
        case .resetPassword:
            return try await move(to: .resetPassword(username: name, delivery: nil))
        case .newPasswordRequired(let required, _):
            learn(required)
            return try await move(to: .newPasswordRequired(username: name, requiredAttributes: required))
        case .mfaCode(let challenge):
            return try await move(to: .secondFactor(username: name, challenge: .code(challenge)))
        case .mfaSelection(let kinds):
            return try await move(to: .secondFactor(username: name, challenge: .choice(kinds)))
        case .mfaSetupSelection(let kinds):
            return try await move(to: .secondFactor(username: name, challenge: .setUpChoice(kinds)))
        case .totpSetup(let setup):
            return try await move(to: .secondFactor(username: name, challenge: .totpSetup(secret: setup.sharedSecret)))
        case .customChallenge:
            throw AuthError.unsupportedChallenge("CUSTOM_CHALLENGE during registration")
        case .firstFactorSelection, .passwordRequired, .otpCode, .passkeyRequired:
            // The flow signs in with the password (SRP or USER_PASSWORD_AUTH), never by choice.
            throw AuthError.unsupportedChallenge("a choice-based sign-in step during registration")
        }
    }

    private func continueAfter(_ registration: CustomRegistrationStep) async throws -> RegistrationStep {
        switch registration {
        case .challenge(let data):
            return try await move(to: .customChallenge(data: data))
        case .registered(let userId, let signIn, let information):
            userSub = userId
            username = userId
            customInformation = information
            return try await continueAfter(signIn)
        }
    }

    private func sendNewCodeAfterExpiry(_ name: String) async throws -> RegistrationStep {
        let delivery = try await client.resendSignUpCode(username: name, clientMetadata: clientMetadata)
        return try await move(to: .confirmSignUp(username: name, delivery: delivery, previousCodeExpired: true))
    }

    /// Compares the user's attributes with what a complete profile needs.
    private func checkProfile(refreshingWhenComplete: Bool = false) async throws -> RegistrationStep {
        let attributes = try await client.fetchUserAttributes()
        var needed: [String] = []
        for name in requiredAttributes + learnedRequired where !needed.contains(name) { needed.append(name) }
        var missing = needed.filter { (attributes[$0] ?? "").isEmpty }
        if let profileCheck {
            for name in try await profileCheck(attributes) where !missing.contains(name) { missing.append(name) }
        }
        guard missing.isEmpty else { return try await move(to: .needsProfile(missing: missing)) }
        if refreshingWhenComplete { try await client.refreshSession() }
        return try await move(to: .complete)
    }

    /// Enters a step and persists it (`.signUp` and `.complete` leave nothing stored).
    private func move(to next: RegistrationStep) async throws -> RegistrationStep {
        step = next
        switch next {
        case .signUp, .complete, .customChallenge:
            password = nil
            try await client.saveRegistration(nil)
        case .secondFactor(let name, _):
            // The sign-in's session lives in memory, and a TOTP secret is not for the store:
            // after a restart the flow asks for the password again.
            try await client.saveRegistration(RegistrationProgress(
                step: .signIn(username: name), username: username, userSub: userSub, learnedRequiredAttributes: learnedRequired))
        default:
            try await client.saveRegistration(RegistrationProgress(
                step: next, username: username, userSub: userSub, learnedRequiredAttributes: learnedRequired))
        }
        return next
    }

    private func learn(_ names: [String]) {
        for name in names where !learnedRequired.contains(name) { learnedRequired.append(name) }
    }

    // MARK: - Step checks

    private func expect(_ call: String, _ allowed: (RegistrationStep) -> Bool) throws {
        guard allowed(step) else { throw invalidStep(call) }
    }

    private func currentUsername(at call: String, _ allowed: (RegistrationStep) -> Bool) throws -> String {
        try expect(call, allowed)
        guard let username else { throw invalidStep(call) }
        return username
    }

    private func invalidStep(_ call: String) -> AuthError {
        .invalidState("\(call) does not fit the registration step \(step).")
    }
}
