import CognateProtocol
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything an app does with an ``AuthClient``, as a protocol: hold an `any AuthProviding`
/// in view models and screens, and give their tests a fake (or a wrapper around a real
/// client) that conforms. ``AuthClient`` is the implementation; ``AuthModel`` takes any.
///
/// Requirements carry every parameter; the extension below adds the short forms
/// (`signIn(username:password:)` …), so callers write the same code against the protocol as
/// against ``AuthClient``. Every method has ``AuthClient``'s contract (see there).
public protocol AuthProviding: Sendable {
    // MARK: Sign-up
    func signUp(
        username: String, password: String?, attributes: [String: String], validationData: [String: String],
        clientMetadata: [String: String]
    ) async throws -> SignUpResult
    @discardableResult
    func confirmSignUp(username: String, code: String, clientMetadata: [String: String]) async throws
        -> SignUpResult.NextStep
    @discardableResult
    func resendSignUpCode(username: String, clientMetadata: [String: String]) async throws -> CodeDelivery?
    func startCustomRegistration(data: String?, clientMetadata: [String: String]) async throws -> CustomRegistrationStep
    func respondToCustomRegistration(data: String?, clientMetadata: [String: String]) async throws
        -> CustomRegistrationStep

    // MARK: Sign-in
    func signIn(username: String, password: String, flow: SignInFlow, clientMetadata: [String: String]) async throws
        -> SignInStep
    func confirmSignIn(newPassword: String, attributes: [String: String], clientMetadata: [String: String]) async throws
        -> SignInStep
    func confirmSignIn(mfaCode: String, clientMetadata: [String: String]) async throws -> SignInStep
    func confirmSignIn(mfaType: MFACodeChallenge.Kind, clientMetadata: [String: String]) async throws -> SignInStep
    func confirmSignIn(mfaSetup kind: MFACodeChallenge.Kind, email: String?, clientMetadata: [String: String]) async throws
        -> SignInStep
    func signInWithCustomChallenge(username: String, password: String?, clientMetadata: [String: String]) async throws
        -> SignInStep
    func confirmSignIn(challengeResponse: String, clientMetadata: [String: String]) async throws -> SignInStep

    // MARK: Choice-based sign-in
    func signIn(username: String, preferred: FirstFactor?, clientMetadata: [String: String]) async throws -> SignInStep
    func confirmSignIn(firstFactor: FirstFactor, clientMetadata: [String: String]) async throws -> SignInStep
    func confirmSignIn(password: String, clientMetadata: [String: String]) async throws -> SignInStep
    func confirmSignIn(otpCode: String, clientMetadata: [String: String]) async throws -> SignInStep
    func confirmSignIn(passkey authenticator: any PasskeyAuthenticator, clientMetadata: [String: String]) async throws
        -> SignInStep
    func autoSignIn(clientMetadata: [String: String]) async throws -> SignInStep

    // MARK: Passkeys
    func associateWebAuthnCredential(authenticator: any PasskeyAuthenticator) async throws
    func listWebAuthnCredentials() async throws -> [WebAuthnCredential]
    func deleteWebAuthnCredential(credentialId: String) async throws
    func fetchAuthFactors() async throws -> [FirstFactor]

    // MARK: MFA
    func setUpTOTP() async throws -> TOTPSetup
    func verifyTOTPSetup(code: String, friendlyName: String?) async throws
    func setTOTPPreference(enabled: Bool) async throws
    func setMFAPreference(_ kind: MFACodeChallenge.Kind, enabled: Bool, preferred: Bool) async throws
    func fetchMFAPreference() async throws -> (enabled: [String], preferred: String?)

    // MARK: Web sign-in
    func signInOptions() async throws -> SignInOptions
    func signInWithWebUI(callbackURL: URL, scopes: [String], provider: String?, presenter: any WebUIPresenter) async throws
        -> SignInStep
    @discardableResult
    func signOutOfWebUI(logoutURL: URL, globally: Bool, presenter: any WebUIPresenter) async throws -> SignOutResult

    // MARK: Devices
    func fetchDevices() async throws -> [AuthDevice]
    func currentDevice() async throws -> RememberedDevice?
    func rememberDevice() async throws
    func forgetDevice() async throws
    func forgetDevice(deviceKey: String) async throws
    @discardableResult
    func deregister() async throws -> SignOutResult

    // MARK: PIN sign-in and profiles
    func pinPolicy() async throws -> PinPolicy?
    func registerPIN(_ pin: String) async throws
    func changePIN(from current: String, to new: String) async throws
    func signIn(withPIN pin: String, profile name: String?) async throws -> SignInStep
    @discardableResult
    func lock() async throws -> SignOutResult
    func pinProfiles() async throws -> [PINProfile]
    @discardableResult
    func deregister(profile name: String) async throws -> SignOutResult

    // MARK: Session
    func currentSession() async throws -> AuthTokens
    func authorizedRequest(_ request: URLRequest) async throws -> URLRequest
    func refreshSession() async throws -> AuthTokens
    @discardableResult
    func signOut(globally: Bool) async throws -> SignOutResult

    // MARK: Identity pool (AWS credentials)
    func authSession() async throws -> AuthSession
    func awsCredentials() async throws -> AWSCredentials

    // MARK: Password
    @discardableResult
    func forgotPassword(username: String, clientMetadata: [String: String]) async throws -> CodeDelivery?
    func confirmForgotPassword(username: String, code: String, newPassword: String, clientMetadata: [String: String])
        async throws
    func changePassword(old: String, new: String) async throws

    // MARK: Account
    func fetchUserAttributes() async throws -> [String: String]
    @discardableResult
    func updateUserAttributes(_ attributes: [String: String], clientMetadata: [String: String]) async throws
        -> [CodeDelivery]
    func confirmAttribute(_ name: String, code: String) async throws
    @discardableResult
    func resendAttributeCode(_ name: String, clientMetadata: [String: String]) async throws -> CodeDelivery?
    func deleteUser() async throws

    // MARK: Codes and state
    func pendingCodes() async throws -> [PendingCode]
    func discardPendingCode(_ purpose: PendingCode.Purpose) async throws
    func state() async -> AuthState
    @discardableResult
    func reloadState() async -> AuthState
    func stateStream() async -> AsyncStream<AuthState>
}

extension AuthClient: AuthProviding {}

// The short forms: the defaults of ``AuthClient``'s own methods, for callers holding the protocol.
extension AuthProviding {
    public func signUp(username: String, password: String? = nil, attributes: [String: String] = [:]) async throws
        -> SignUpResult
    {
        try await signUp(username: username, password: password, attributes: attributes, validationData: [:], clientMetadata: [:])
    }

    @discardableResult
    public func confirmSignUp(username: String, code: String) async throws -> SignUpResult.NextStep {
        try await confirmSignUp(username: username, code: code, clientMetadata: [:])
    }

    @discardableResult
    public func resendSignUpCode(username: String) async throws -> CodeDelivery? {
        try await resendSignUpCode(username: username, clientMetadata: [:])
    }

    public func startCustomRegistration(data: String?) async throws -> CustomRegistrationStep {
        try await startCustomRegistration(data: data, clientMetadata: [:])
    }

    public func respondToCustomRegistration(data: String?) async throws -> CustomRegistrationStep {
        try await respondToCustomRegistration(data: data, clientMetadata: [:])
    }

    public func signIn(username: String, password: String, flow: SignInFlow = .srp) async throws -> SignInStep {
        try await signIn(username: username, password: password, flow: flow, clientMetadata: [:])
    }

    public func confirmSignIn(newPassword: String, attributes: [String: String] = [:]) async throws -> SignInStep {
        try await confirmSignIn(newPassword: newPassword, attributes: attributes, clientMetadata: [:])
    }

    public func confirmSignIn(mfaCode: String) async throws -> SignInStep {
        try await confirmSignIn(mfaCode: mfaCode, clientMetadata: [:])
    }

    public func confirmSignIn(mfaType: MFACodeChallenge.Kind) async throws -> SignInStep {
        try await confirmSignIn(mfaType: mfaType, clientMetadata: [:])
    }

    public func signIn(withPIN pin: String) async throws -> SignInStep {
        try await signIn(withPIN: pin, profile: nil)
    }

    public func setMFAPreference(_ kind: MFACodeChallenge.Kind, enabled: Bool) async throws {
        try await setMFAPreference(kind, enabled: enabled, preferred: false)
    }

    public func confirmSignIn(mfaSetup kind: MFACodeChallenge.Kind, email: String? = nil) async throws -> SignInStep {
        try await confirmSignIn(mfaSetup: kind, email: email, clientMetadata: [:])
    }

    public func signInWithWebUI(callbackURL: URL, presenter: any WebUIPresenter) async throws -> SignInStep {
        try await signInWithWebUI(
            callbackURL: callbackURL, scopes: ["openid", "email", "profile", "aws.cognito.signin.user.admin"], provider: nil,
            presenter: presenter)
    }

    @discardableResult
    public func signOutOfWebUI(logoutURL: URL, presenter: any WebUIPresenter) async throws -> SignOutResult {
        try await signOutOfWebUI(logoutURL: logoutURL, globally: false, presenter: presenter)
    }

    public func signInWithCustomChallenge(username: String, password: String? = nil) async throws -> SignInStep {
        try await signInWithCustomChallenge(username: username, password: password, clientMetadata: [:])
    }

    public func confirmSignIn(challengeResponse: String) async throws -> SignInStep {
        try await confirmSignIn(challengeResponse: challengeResponse, clientMetadata: [:])
    }

    public func signIn(username: String, preferred: FirstFactor? = nil) async throws -> SignInStep {
        try await signIn(username: username, preferred: preferred, clientMetadata: [:])
    }

    public func confirmSignIn(firstFactor: FirstFactor) async throws -> SignInStep {
        try await confirmSignIn(firstFactor: firstFactor, clientMetadata: [:])
    }

    public func confirmSignIn(password: String) async throws -> SignInStep {
        try await confirmSignIn(password: password, clientMetadata: [:])
    }

    public func confirmSignIn(otpCode: String) async throws -> SignInStep {
        try await confirmSignIn(otpCode: otpCode, clientMetadata: [:])
    }

    public func confirmSignIn(passkey authenticator: any PasskeyAuthenticator) async throws -> SignInStep {
        try await confirmSignIn(passkey: authenticator, clientMetadata: [:])
    }

    public func autoSignIn() async throws -> SignInStep { try await autoSignIn(clientMetadata: [:]) }

    @discardableResult
    public func signOut() async throws -> SignOutResult { try await signOut(globally: false) }

    @discardableResult
    public func forgotPassword(username: String) async throws -> CodeDelivery? {
        try await forgotPassword(username: username, clientMetadata: [:])
    }

    public func confirmForgotPassword(username: String, code: String, newPassword: String) async throws {
        try await confirmForgotPassword(username: username, code: code, newPassword: newPassword, clientMetadata: [:])
    }

    @discardableResult
    public func updateUserAttributes(_ attributes: [String: String]) async throws -> [CodeDelivery] {
        try await updateUserAttributes(attributes, clientMetadata: [:])
    }

    @discardableResult
    public func resendAttributeCode(_ name: String) async throws -> CodeDelivery? {
        try await resendAttributeCode(name, clientMetadata: [:])
    }
}
