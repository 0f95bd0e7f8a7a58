import CognateProtocol
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``AuthProviding`` that keeps its users in memory, for SwiftUI previews and an app's own
/// tests: sign-up with confirmation, sign-in (every ``SignInFlow`` alike), a new password for
/// users made with a temporary one, an MFA code for users given a factor, the choice of a
/// factor for users given several, MFA set-up at sign-in (the authenticator app or email),
/// choice-based sign-in with the password, an emailed or texted one-time code or a passkey (the
/// authenticator is asked; whatever it answers signs in — nothing is verified), password reset
/// and change, attributes, sign-out, PIN sign-in on one profile, and the state stream — without
/// a server. Every code it asks for is ``code`` (`123456` unless given). Tokens are unsigned and
/// worth nothing outside the fake. What it does not model (web sign-in, passkey registration,
/// custom challenges, devices, identity pools) throws ``AuthError/unsupportedOperation(_:)``, so a test
/// that reaches it says so. Not for production: nothing is stored or secured.
public actor FakeAuth: AuthProviding {
    /// A user of the fake.
    public struct Account: Sendable, Equatable {
        public var username: String
        public var password: String
        public var attributes: [String: String]
        public var confirmed: Bool
        /// The user must choose a password at the next sign-in (an admin-created user).
        public var temporaryPassword: Bool
        /// The second factor asked for at sign-in; nil: none.
        public var mfa: MFACodeChallenge.Kind?
        public var groups: [String]
        /// Several second factors and none preferred (when ``mfa`` is nil): sign-in asks which
        /// one (``SignInStep/mfaSelection(_:)``), then for its code.
        public var mfaChoices: [MFACodeChallenge.Kind]
        /// The pool requires MFA and the user has no factor yet (when ``mfa`` is nil): the
        /// factors sign-in offers to set up — `[.totp]` alone leads to
        /// ``SignInStep/totpSetup(_:)``, anything else to ``SignInStep/mfaSetupSelection(_:)``.
        /// The code that completes the set-up makes it the user's ``mfa``.
        public var mfaSetup: [MFACodeChallenge.Kind]
        /// The first factors choice-based sign-in (`signIn(username:preferred:)`) offers, in
        /// order: several lead to ``SignInStep/firstFactorSelection(_:)``; the one-time codes
        /// (`.emailOTP`, `.smsOTP`) to ``SignInStep/otpCode(_:)``; `.webAuthn` to
        /// ``SignInStep/passkeyRequired(_:)``.
        public var firstFactors: [FirstFactor]

        public init(username: String, password: String, attributes: [String: String] = [:], confirmed: Bool = true,
                    temporaryPassword: Bool = false, mfa: MFACodeChallenge.Kind? = nil, groups: [String] = [],
                    mfaChoices: [MFACodeChallenge.Kind] = [], mfaSetup: [MFACodeChallenge.Kind] = [],
                    firstFactors: [FirstFactor] = [.password]) {
            self.username = username
            self.password = password
            self.attributes = attributes
            self.confirmed = confirmed
            self.temporaryPassword = temporaryPassword
            self.mfa = mfa
            self.groups = groups
            self.mfaChoices = mfaChoices
            self.mfaSetup = mfaSetup
            self.firstFactors = firstFactors
        }
    }

    /// The code every confirmation, reset, attribute and MFA step takes.
    public let code: String
    public private(set) var accounts: [String: Account]
    private var signedIn: String?
    private var pending: (username: String, step: String)?
    /// The address an email second factor is being set up with.
    private var setupEmail: String?
    private var pin: (username: String, pin: String)?
    private var pinFailures = 0
    private var watchers: [UUID: AsyncStream<AuthState>.Continuation] = [:]
    private var issued = 0

    /// A fake holding `accounts`; `signedIn` names the one signed in at the start (for previews).
    public init(accounts: [Account] = [], signedIn: String? = nil, code: String = "123456") {
        let byName = Dictionary(accounts.map { ($0.username, $0) }, uniquingKeysWith: { $1 })
        self.accounts = byName
        self.signedIn = signedIn.flatMap { byName[$0] == nil ? nil : $0 }
        self.code = code
    }

    // MARK: State

    public func state() -> AuthState { signedIn.flatMap { accounts[$0] }.map { .signedIn(user(of: $0)) } ?? .signedOut }
    public func reloadState() -> AuthState { state() }

    public func stateStream() -> AsyncStream<AuthState> {
        let (stream, continuation) = AsyncStream<AuthState>.makeStream()
        let id = UUID()
        watchers[id] = continuation
        continuation.yield(state())
        continuation.onTermination = { [weak self] _ in Task { await self?.stopWatching(id) } }
        return stream
    }

    private func stopWatching(_ id: UUID) { watchers[id] = nil }

    private func publish() {
        let now = state()
        for watcher in watchers.values { watcher.yield(now) }
    }

    private func user(of account: Account) -> AuthUser {
        AuthUser(userId: account.attributes["sub"] ?? "fake-" + account.username, username: account.username,
                 attributes: account.attributes, groups: account.groups)
    }

    private func requireSignedIn() throws -> Account {
        guard let name = signedIn, let account = accounts[name] else { throw AuthError.notSignedIn }
        return account
    }

    private func checkCode(_ given: String) throws {
        guard given == code else { throw AuthError.codeMismatch("Invalid verification code provided, please try again.") }
    }

    private func delivery(for account: Account) -> CodeDelivery {
        if let email = account.attributes["email"] { return CodeDelivery(destination: email, medium: .email, attributeName: "email") }
        if let phone = account.attributes["phone_number"] {
            return CodeDelivery(destination: phone, medium: .sms, attributeName: "phone_number")
        }
        return CodeDelivery(destination: account.username, medium: .unknown, attributeName: "username")
    }

    private func finishSignIn(_ account: Account) -> SignInStep {
        signedIn = account.username
        pending = nil
        publish()
        return .signedIn(user(of: account))
    }

    // MARK: Sign-up

    public func signUp(username: String, password: String?, attributes: [String: String], validationData: [String: String],
                       clientMetadata: [String: String]) throws -> SignUpResult {
        guard accounts[username] == nil else { throw AuthError.usernameExists("User already exists") }
        guard let password, !password.isEmpty else { throw AuthError.invalidPassword("A password is required.") }
        let account = Account(username: username, password: password, attributes: attributes, confirmed: false)
        accounts[username] = account
        return SignUpResult(userSub: "fake-" + username, nextStep: .confirmSignUp(delivery(for: account)))
    }

    public func confirmSignUp(username: String, code: String, clientMetadata: [String: String]) throws
        -> SignUpResult.NextStep
    {
        guard var account = accounts[username] else { throw AuthError.userNotFound("Username/client id combination not found.") }
        try checkCode(code)
        account.confirmed = true
        accounts[username] = account
        return .done
    }

    public func resendSignUpCode(username: String, clientMetadata: [String: String]) throws -> CodeDelivery? {
        guard let account = accounts[username] else { throw AuthError.userNotFound("Username/client id combination not found.") }
        return delivery(for: account)
    }

    public func startCustomRegistration(data: String?, clientMetadata: [String: String]) throws -> CustomRegistrationStep {
        throw Self.unmodelled("custom registration")
    }

    public func respondToCustomRegistration(data: String?, clientMetadata: [String: String]) throws
        -> CustomRegistrationStep
    {
        throw Self.unmodelled("custom registration")
    }

    // MARK: Sign-in

    public func signIn(username: String, password: String, flow: SignInFlow, clientMetadata: [String: String]) throws
        -> SignInStep
    {
        guard let account = accounts[username], account.password == password else {
            throw AuthError.notAuthorized("Incorrect username or password.")
        }
        guard account.confirmed else { return .confirmSignUp(username: username) }
        if account.temporaryPassword {
            pending = (username, "NEW_PASSWORD_REQUIRED")
            return .newPasswordRequired(
                requiredAttributes: [], session: ChallengeSession(challengeName: "NEW_PASSWORD_REQUIRED", username: username))
        }
        return secondFactor(of: account)
    }

    /// The step after the first factor: the user's MFA code, the choice of a factor, its set-up, or done.
    private func secondFactor(of account: Account) -> SignInStep {
        if let kind = account.mfa { return mfaCode(kind, for: account) }
        if account.mfaChoices.count > 1 {
            pending = (account.username, "SELECT_MFA_TYPE")
            return .mfaSelection(account.mfaChoices)
        }
        if account.mfaSetup == [.totp] {
            pending = (account.username, "MFA_SETUP_TOTP")
            return .totpSetup(TOTPSetup(sharedSecret: Self.totpSecret))
        }
        if !account.mfaSetup.isEmpty {
            pending = (account.username, "MFA_SETUP")
            return .mfaSetupSelection(account.mfaSetup)
        }
        return finishSignIn(account)
    }

    private func mfaCode(_ kind: MFACodeChallenge.Kind, for account: Account) -> SignInStep {
        pending = (account.username, kind.rawValue)
        return .mfaCode(MFACodeChallenge(kind: kind, destination: kind == .totp ? nil : delivery(for: account).destination))
    }

    private static let totpSecret = "JBSWY3DPEHPK3PXP"
    private static let codeSteps: Set<String> = [
        MFACodeChallenge.Kind.sms.rawValue, MFACodeChallenge.Kind.totp.rawValue, MFACodeChallenge.Kind.email.rawValue,
        "MFA_SETUP_TOTP", "MFA_SETUP_EMAIL",
    ]

    public func confirmSignIn(newPassword: String, attributes: [String: String], clientMetadata: [String: String]) throws
        -> SignInStep
    {
        guard let step = pending, step.step == "NEW_PASSWORD_REQUIRED", var account = accounts[step.username] else {
            throw AuthError.invalidState("No new password is asked for.")
        }
        account.password = newPassword
        account.temporaryPassword = false
        account.attributes.merge(attributes) { $1 }
        accounts[account.username] = account
        return finishSignIn(account)
    }

    public func confirmSignIn(mfaCode: String, clientMetadata: [String: String]) throws -> SignInStep {
        guard let step = pending, Self.codeSteps.contains(step.step), var account = accounts[step.username] else {
            throw AuthError.invalidState("No MFA code is asked for.")
        }
        try checkCode(mfaCode)
        if step.step == "MFA_SETUP_TOTP" { account.mfa = .totp }
        if step.step == "MFA_SETUP_EMAIL", let setupEmail {
            account.mfa = .email
            account.attributes["email"] = setupEmail
            self.setupEmail = nil
        }
        accounts[account.username] = account
        return finishSignIn(account)
    }

    public func confirmSignIn(mfaType: MFACodeChallenge.Kind, clientMetadata: [String: String]) throws -> SignInStep {
        guard let step = pending, step.step == "SELECT_MFA_TYPE", let account = accounts[step.username] else {
            throw AuthError.invalidState("No MFA type is asked for.")
        }
        guard account.mfaChoices.contains(mfaType) else {
            throw AuthError.invalidParameter("\(mfaType.rawValue) is not one of the user's factors.")
        }
        return mfaCode(mfaType, for: account)
    }

    public func confirmSignIn(mfaSetup kind: MFACodeChallenge.Kind, email: String?, clientMetadata: [String: String]) throws
        -> SignInStep
    {
        guard let step = pending, step.step == "MFA_SETUP", let account = accounts[step.username] else {
            throw AuthError.invalidState("No MFA set-up is asked for.")
        }
        guard account.mfaSetup.contains(kind) else {
            throw AuthError.invalidParameter("\(kind.rawValue) is not offered for set-up.")
        }
        switch kind {
        case .totp:
            pending = (account.username, "MFA_SETUP_TOTP")
            return .totpSetup(TOTPSetup(sharedSecret: Self.totpSecret))
        case .email:
            guard let email = email ?? account.attributes["email"], !email.isEmpty else {
                throw AuthError.invalidParameter("An email address is required to set up email MFA.")
            }
            pending = (account.username, "MFA_SETUP_EMAIL")
            setupEmail = email
            return .mfaCode(MFACodeChallenge(kind: .email, destination: email))
        case .sms:
            throw Self.unmodelled("setting up SMS MFA")
        }
    }

    public func signInWithCustomChallenge(username: String, password: String?, clientMetadata: [String: String]) throws
        -> SignInStep
    {
        throw Self.unmodelled("custom challenges")
    }

    public func confirmSignIn(challengeResponse: String, clientMetadata: [String: String]) throws -> SignInStep {
        throw Self.unmodelled("custom challenges")
    }

    public func signIn(username: String, preferred: FirstFactor?, clientMetadata: [String: String]) throws -> SignInStep {
        guard let account = accounts[username] else { throw AuthError.notAuthorized("Incorrect username or password.") }
        let offered = account.firstFactors
        if let preferred, offered.contains(preferred) { return try firstFactor(preferred, of: account) }
        if offered.count == 1, let only = offered.first { return try firstFactor(only, of: account) }
        pending = (username, "SELECT_CHALLENGE")
        return .firstFactorSelection(offered)
    }

    public func confirmSignIn(firstFactor: FirstFactor, clientMetadata: [String: String]) throws -> SignInStep {
        guard let step = pending, ["SELECT_CHALLENGE", "USER_AUTH"].contains(step.step), let account = accounts[step.username]
        else {
            // Without a choice under way, the password stays what it always was here.
            guard firstFactor.isPassword else { throw AuthError.invalidState("No first factor is asked for.") }
            return .passwordRequired
        }
        guard account.firstFactors.contains(firstFactor) else {
            throw AuthError.factorNotOffered(firstFactor, offered: account.firstFactors)
        }
        return try self.firstFactor(firstFactor, of: account)
    }

    private func firstFactor(_ factor: FirstFactor, of account: Account) throws -> SignInStep {
        switch factor {
        case .password, .passwordSRP:
            pending = (account.username, "USER_AUTH")
            return .passwordRequired
        case .emailOTP:
            guard let email = account.attributes["email"] else {
                throw AuthError.invalidParameter("The user has no email address.")
            }
            pending = (account.username, "OTP")
            return .otpCode(CodeDelivery(destination: email, medium: .email, attributeName: "email"))
        case .smsOTP:
            guard let phone = account.attributes["phone_number"] else {
                throw AuthError.invalidParameter("The user has no phone number.")
            }
            pending = (account.username, "OTP")
            return .otpCode(CodeDelivery(destination: phone, medium: .sms, attributeName: "phone_number"))
        case .webAuthn:
            // The fake's passkey: any answer the authenticator gives signs in (nothing is verified).
            pending = (account.username, "WEB_AUTHN")
            let options = #"{"challenge":"ZmFrZS1jaGFsbGVuZ2U","rpId":"fake.example","userVerification":"preferred","allowCredentials":[]}"#
            return .passkeyRequired(PasskeyRequest(
                relyingPartyId: "fake.example", allowedCredentialIds: [], userVerification: .preferred, optionsJSON: options))
        }
    }

    public func confirmSignIn(password: String, clientMetadata: [String: String]) throws -> SignInStep {
        guard let step = pending, step.step == "USER_AUTH" || step.step == "SELECT_CHALLENGE" else {
            throw AuthError.invalidState("No password is asked for.")
        }
        return try signIn(username: step.username, password: password, flow: .password, clientMetadata: clientMetadata)
    }

    /// A one-time code as the first factor signs in without a second one, as in Cognito.
    public func confirmSignIn(otpCode: String, clientMetadata: [String: String]) throws -> SignInStep {
        guard let step = pending, step.step == "OTP", let account = accounts[step.username] else {
            throw AuthError.invalidState("No one-time code is asked for.")
        }
        try checkCode(otpCode)
        return finishSignIn(account)
    }

    /// The authenticator is asked, as a real sign-in asks it; whatever it answers signs in (the
    /// fake verifies nothing), and what it throws (the user cancelled) is thrown.
    public func confirmSignIn(passkey authenticator: any PasskeyAuthenticator, clientMetadata: [String: String]) async throws
        -> SignInStep
    {
        guard let step = pending, step.step == "WEB_AUTHN", let account = accounts[step.username] else {
            throw AuthError.invalidState("No passkey is asked for.")
        }
        guard case .passkeyRequired(let request) = try firstFactor(.webAuthn, of: account) else {
            throw AuthError.invalidState("No passkey is asked for.")
        }
        _ = try await authenticator.assertPasskey(optionsJSON: request.optionsJSON)
        return finishSignIn(account)
    }

    public func autoSignIn(clientMetadata: [String: String]) throws -> SignInStep { throw Self.unmodelled("autoSignIn") }

    // MARK: Passkeys, MFA, web sign-in, devices: not modelled but TOTP set-up

    public func associateWebAuthnCredential(authenticator: any PasskeyAuthenticator) throws { throw Self.unmodelled("passkeys") }
    public func listWebAuthnCredentials() throws -> [WebAuthnCredential] { [] }
    public func deleteWebAuthnCredential(credentialId: String) throws { throw Self.unmodelled("passkeys") }
    public func fetchAuthFactors() throws -> [FirstFactor] { _ = try requireSignedIn(); return [.password] }

    public func setUpTOTP() throws -> TOTPSetup {
        _ = try requireSignedIn()
        return TOTPSetup(sharedSecret: Self.totpSecret)
    }

    public func verifyTOTPSetup(code: String, friendlyName: String?) throws {
        var account = try requireSignedIn()
        try checkCode(code)
        account.mfa = .totp
        accounts[account.username] = account
    }

    public func setTOTPPreference(enabled: Bool) throws {
        try setMFAPreference(.totp, enabled: enabled, preferred: enabled)
    }

    public func setMFAPreference(_ kind: MFACodeChallenge.Kind, enabled: Bool, preferred: Bool) throws {
        var account = try requireSignedIn()
        account.mfa = enabled ? kind : (account.mfa == kind ? nil : account.mfa)
        accounts[account.username] = account
    }

    public func fetchMFAPreference() throws -> (enabled: [String], preferred: String?) {
        let account = try requireSignedIn()
        return (account.mfa.map { [$0.rawValue] } ?? [], account.mfa?.rawValue)
    }

    /// The pool's own sign-in only (the fake has no providers).
    public func signInOptions() -> SignInOptions { SignInOptions(cognito: true, providers: [], emailDiscovery: false) }

    public func signInWithWebUI(callbackURL: URL, scopes: [String], provider: String?, presenter: any WebUIPresenter) throws
        -> SignInStep
    {
        throw Self.unmodelled("web sign-in")
    }

    public func signOutOfWebUI(logoutURL: URL, globally: Bool, presenter: any WebUIPresenter) -> SignOutResult {
        signOut()
    }

    public func fetchDevices() throws -> [AuthDevice] { _ = try requireSignedIn(); return [] }
    public func currentDevice() -> RememberedDevice? { nil }
    public func rememberDevice() throws { throw Self.unmodelled("devices") }
    public func forgetDevice() throws { throw Self.unmodelled("devices") }
    public func forgetDevice(deviceKey: String) throws { throw Self.unmodelled("devices") }

    public func deregister() -> SignOutResult {
        pin = nil
        return signOut()
    }

    // MARK: PIN (one profile, "default")

    public func pinPolicy() -> PinPolicy? { PinPolicy() }

    public func registerPIN(_ pin: String) throws {
        let account = try requireSignedIn()
        let violations = PinPolicy().violations(of: pin)
        guard violations.isEmpty else { throw AuthError.pinPolicyViolation(violations) }
        self.pin = (account.username, pin)
        pinFailures = 0
    }

    public func changePIN(from current: String, to new: String) throws {
        guard let registered = pin, registered.pin == current else { throw AuthError.incorrectPIN(remainingAttempts: 0) }
        try registerPIN(new)
    }

    public func signIn(withPIN pin: String, profile name: String?) throws -> SignInStep {
        guard let registered = self.pin, let account = accounts[registered.username] else { throw AuthError.pinNotRegistered }
        guard registered.pin == pin else {
            pinFailures += 1
            let left = max(PinPolicy().maximumAttempts - pinFailures, 0)
            guard left > 0 else {
                self.pin = nil
                throw AuthError.pinAttemptsExhausted
            }
            throw AuthError.incorrectPIN(remainingAttempts: left)
        }
        pinFailures = 0
        return finishSignIn(account)
    }

    public func lock() -> SignOutResult { signOut() }

    public func pinProfiles() -> [PINProfile] { pin.map { [PINProfile(profile: "default", username: $0.username)] } ?? [] }

    public func deregister(profile name: String) -> SignOutResult { deregister() }

    // MARK: Session

    public func currentSession() throws -> AuthTokens {
        let account = try requireSignedIn()
        issued += 1
        return AuthTokens(
            idToken: "fake.id.\(issued)", accessToken: "fake.access.\(issued)", refreshToken: "fake.refresh",
            expiresAt: Date().addingTimeInterval(3600), user: user(of: account))
    }

    public func refreshSession() throws -> AuthTokens { try currentSession() }

    public func authorizedRequest(_ request: URLRequest) throws -> URLRequest {
        try AuthClient.checkTokenDestination(request.url)
        var authorized = request
        authorized.setValue("Bearer " + (try currentSession().accessToken), forHTTPHeaderField: "Authorization")
        return authorized
    }

    @discardableResult
    public func signOut(globally: Bool = false) -> SignOutResult {
        signedIn = nil
        pending = nil
        publish()
        return .complete
    }

    public func authSession() throws -> AuthSession { throw Self.unmodelled("identity pools") }
    public func awsCredentials() throws -> AWSCredentials { throw Self.unmodelled("identity pools") }

    // MARK: Password

    public func forgotPassword(username: String, clientMetadata: [String: String]) throws -> CodeDelivery? {
        guard let account = accounts[username] else { throw AuthError.userNotFound("Username/client id combination not found.") }
        return delivery(for: account)
    }

    public func confirmForgotPassword(username: String, code: String, newPassword: String, clientMetadata: [String: String])
        throws
    {
        guard var account = accounts[username] else { throw AuthError.userNotFound("Username/client id combination not found.") }
        try checkCode(code)
        account.password = newPassword
        account.temporaryPassword = false
        accounts[username] = account
    }

    public func changePassword(old: String, new: String) throws {
        var account = try requireSignedIn()
        guard account.password == old else { throw AuthError.notAuthorized("Incorrect username or password.") }
        account.password = new
        accounts[account.username] = account
    }

    // MARK: Account

    public func fetchUserAttributes() throws -> [String: String] { try requireSignedIn().attributes }

    public func updateUserAttributes(_ attributes: [String: String], clientMetadata: [String: String]) throws -> [CodeDelivery] {
        var account = try requireSignedIn()
        account.attributes.merge(attributes) { $1 }
        accounts[account.username] = account
        publish()
        return attributes.keys.sorted().compactMap { name in
            switch name {
            case "email": CodeDelivery(destination: attributes[name]!, medium: .email, attributeName: name)
            case "phone_number": CodeDelivery(destination: attributes[name]!, medium: .sms, attributeName: name)
            default: nil
            }
        }
    }

    public func confirmAttribute(_ name: String, code: String) throws {
        var account = try requireSignedIn()
        try checkCode(code)
        account.attributes[name + "_verified"] = "true"
        accounts[account.username] = account
    }

    public func resendAttributeCode(_ name: String, clientMetadata: [String: String]) throws -> CodeDelivery? {
        let account = try requireSignedIn()
        return account.attributes[name].map {
            CodeDelivery(destination: $0, medium: name == "email" ? .email : .sms, attributeName: name)
        }
    }

    public func deleteUser() throws {
        let account = try requireSignedIn()
        accounts[account.username] = nil
        if pin?.username == account.username { pin = nil }
        signOut()
    }

    // MARK: Codes

    public func pendingCodes() -> [PendingCode] { [] }
    public func discardPendingCode(_ purpose: PendingCode.Purpose) {}

    private static func unmodelled(_ what: String) -> AuthError {
        AuthError.unsupportedOperation("FakeAuth does not model \(what).")
    }
}
