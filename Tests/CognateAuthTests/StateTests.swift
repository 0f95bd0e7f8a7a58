import CognateAuth
import CognateProtocol
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The auth state when the store cannot be read, and the Observable model for SwiftUI.
struct StateTests {
    /// A relaunch before the device is unlocked: the store fails, which is reported as its own
    /// state (not as signed out) and read again on the next call, until it works.
    @Test func unreadableStoreIsNotSignedOut() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let app = try await live.makeClient(pool: pool)
            let store = LockableTokenStore()
            let first = live.authClient(pool: pool, client: app, store: store)
            try await live.confirmedUser(first, username: "locked", email: uniqueEmail())
            guard case .signedIn(let user) = try await first.signIn(username: "locked", password: "Passw0rd1") else {
                throw AuthError.invalidState("not signed in")
            }

            await store.lock()
            let relaunched = live.authClient(pool: pool, client: app, store: store)
            #expect(await relaunched.state() == .storageUnavailable)
            var states = await relaunched.stateStream().makeAsyncIterator()
            #expect(await states.next() == .storageUnavailable)
            await expectAuthError({ _ = try await relaunched.currentSession() }) {
                if case .storage = $0 { true } else { false }
            }
            #expect(await relaunched.state() == .storageUnavailable)  // tried again, still locked

            await store.unlock()
            #expect(await relaunched.state() == .signedIn(user))
            #expect(await states.next() == .signedIn(user))

            // Known state is kept when a later read fails; reloadState reports what it knows.
            await store.lock()
            #expect(await relaunched.reloadState() == .signedIn(user))
            await store.unlock()

            // reloadState() is the explicit retry: another relaunch, unlocked in between.
            await store.lock()
            let again = live.authClient(pool: pool, client: app, store: store)
            #expect(await again.state() == .storageUnavailable)
            await store.unlock()
            #expect(await again.reloadState() == .signedIn(user))
        }
    }

    @Test func observableModelFollowsTheStateAndRecordsFailures() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            try await live.confirmedUser(client, username: "model", email: uniqueEmail())
            await Self.driveModel(over: AppAuth(client))
        }
    }

    /// What a SwiftUI screen does with the model: observe, sign in (wrongly, then rightly), sign out.
    @MainActor
    static func driveModel(over auth: AppAuth) async {
        let model = AuthModel(auth: auth)
        #expect(model.state == nil)
        let observing = Task { await model.observe() }
        defer { observing.cancel() }
        await model.waitUntil { $0.state == .signedOut }

        let wrong = await model.perform { try await $0.signIn(username: "model", password: "Wrong0ne1") }
        #expect(wrong == nil)
        #expect(model.lastError == .notAuthorized("Incorrect username or password."))
        #expect(!model.isWorking)

        let step = await model.perform { try await $0.signIn(username: "model", password: "Passw0rd1") }
        guard case .signedIn(let user)? = step else {
            Issue.record("expected signedIn, got \(String(describing: step))")
            return
        }
        #expect(model.lastError == nil)
        await model.waitUntil { $0.state == .signedIn(user) }
        #expect(model.user == user)

        await model.perform { try await $0.signOut() }
        await model.waitUntil { $0.state == .signedOut }
        #expect(model.user == nil)
        #expect(auth.callCount == 3)  // every action went through the app's own type
    }
}

/// What an app keeps behind its own protocol: here a wrapper that forwards to a real client
/// and counts calls — it compiles against ``AuthProviding`` from outside the SDK.
final class AppAuth: AuthProviding, @unchecked Sendable {
    private let client: AuthClient
    private let lock = NSLock()
    private var calls = 0

    init(_ client: AuthClient) { self.client = client }

    var callCount: Int { lock.withLock { calls } }
    private func count() { lock.withLock { calls += 1 } }

    func signUp(
        username: String, password: String?, attributes: [String: String], validationData: [String: String],
        clientMetadata: [String: String]
    ) async throws -> SignUpResult {
        count()
        return try await client.signUp(
            username: username, password: password, attributes: attributes, validationData: validationData,
            clientMetadata: clientMetadata)
    }
    func confirmSignUp(username: String, code: String, clientMetadata: [String: String]) async throws
        -> SignUpResult.NextStep
    {
        count()
        return try await client.confirmSignUp(username: username, code: code, clientMetadata: clientMetadata)
    }
    func resendSignUpCode(username: String, clientMetadata: [String: String]) async throws -> CodeDelivery? {
        count()
        return try await client.resendSignUpCode(username: username, clientMetadata: clientMetadata)
    }
    func startCustomRegistration(data: String?, clientMetadata: [String: String]) async throws -> CustomRegistrationStep {
        count()
        return try await client.startCustomRegistration(data: data, clientMetadata: clientMetadata)
    }
    func respondToCustomRegistration(data: String?, clientMetadata: [String: String]) async throws
        -> CustomRegistrationStep
    {
        count()
        return try await client.respondToCustomRegistration(data: data, clientMetadata: clientMetadata)
    }
    func signIn(username: String, password: String, flow: SignInFlow, clientMetadata: [String: String]) async throws
        -> SignInStep
    {
        count()
        return try await client.signIn(username: username, password: password, flow: flow, clientMetadata: clientMetadata)
    }
    func confirmSignIn(newPassword: String, attributes: [String: String], clientMetadata: [String: String]) async throws
        -> SignInStep
    {
        count()
        return try await client.confirmSignIn(newPassword: newPassword, attributes: attributes, clientMetadata: clientMetadata)
    }
    func confirmSignIn(mfaCode: String, clientMetadata: [String: String]) async throws -> SignInStep {
        count()
        return try await client.confirmSignIn(mfaCode: mfaCode, clientMetadata: clientMetadata)
    }
    func signInWithCustomChallenge(username: String, password: String?, clientMetadata: [String: String]) async throws
        -> SignInStep
    {
        count()
        return try await client.signInWithCustomChallenge(username: username, password: password, clientMetadata: clientMetadata)
    }
    func confirmSignIn(mfaType: MFACodeChallenge.Kind, clientMetadata: [String: String]) async throws -> SignInStep {
        count()
        return try await client.confirmSignIn(mfaType: mfaType, clientMetadata: clientMetadata)
    }
    func confirmSignIn(mfaSetup kind: MFACodeChallenge.Kind, email: String?, clientMetadata: [String: String]) async throws
        -> SignInStep
    {
        count()
        return try await client.confirmSignIn(mfaSetup: kind, email: email, clientMetadata: clientMetadata)
    }
    func signInWithWebUI(callbackURL: URL, scopes: [String], provider: String?, presenter: any WebUIPresenter) async throws
        -> SignInStep
    {
        try await client.signInWithWebUI(callbackURL: callbackURL, scopes: scopes, provider: provider, presenter: presenter)
    }
    func signOutOfWebUI(logoutURL: URL, globally: Bool, presenter: any WebUIPresenter) async throws -> SignOutResult {
        try await client.signOutOfWebUI(logoutURL: logoutURL, globally: globally, presenter: presenter)
    }
    func fetchDevices() async throws -> [AuthDevice] { try await client.fetchDevices() }
    func signInOptions() async throws -> SignInOptions { try await client.signInOptions() }
    func authorizedRequest(_ request: URLRequest) async throws -> URLRequest { try await client.authorizedRequest(request) }
    func currentDevice() async throws -> RememberedDevice? { try await client.currentDevice() }
    func rememberDevice() async throws { try await client.rememberDevice() }
    func deregister() async throws -> SignOutResult { try await client.deregister() }
    func pinPolicy() async throws -> PinPolicy? { try await client.pinPolicy() }
    func registerPIN(_ pin: String) async throws { try await client.registerPIN(pin) }
    func changePIN(from current: String, to new: String) async throws { try await client.changePIN(from: current, to: new) }
    func signIn(withPIN pin: String, profile name: String?) async throws -> SignInStep {
        try await client.signIn(withPIN: pin, profile: name)
    }
    func lock() async throws -> SignOutResult { try await client.lock() }
    func pinProfiles() async throws -> [PINProfile] { try await client.pinProfiles() }
    func deregister(profile name: String) async throws -> SignOutResult { try await client.deregister(profile: name) }
    func setMFAPreference(_ kind: MFACodeChallenge.Kind, enabled: Bool, preferred: Bool) async throws {
        try await client.setMFAPreference(kind, enabled: enabled, preferred: preferred)
    }
    func fetchMFAPreference() async throws -> (enabled: [String], preferred: String?) { try await client.fetchMFAPreference() }
    func forgetDevice() async throws { try await client.forgetDevice() }
    func forgetDevice(deviceKey: String) async throws { try await client.forgetDevice(deviceKey: deviceKey) }
    func setUpTOTP() async throws -> TOTPSetup { try await client.setUpTOTP() }
    func verifyTOTPSetup(code: String, friendlyName: String?) async throws {
        try await client.verifyTOTPSetup(code: code, friendlyName: friendlyName)
    }
    func setTOTPPreference(enabled: Bool) async throws { try await client.setTOTPPreference(enabled: enabled) }
    func confirmSignIn(challengeResponse: String, clientMetadata: [String: String]) async throws -> SignInStep {
        count()
        return try await client.confirmSignIn(challengeResponse: challengeResponse, clientMetadata: clientMetadata)
    }
    func signIn(username: String, preferred: FirstFactor?, clientMetadata: [String: String]) async throws -> SignInStep {
        count()
        return try await client.signIn(username: username, preferred: preferred, clientMetadata: clientMetadata)
    }
    func confirmSignIn(firstFactor: FirstFactor, clientMetadata: [String: String]) async throws -> SignInStep {
        count()
        return try await client.confirmSignIn(firstFactor: firstFactor, clientMetadata: clientMetadata)
    }
    func confirmSignIn(password: String, clientMetadata: [String: String]) async throws -> SignInStep {
        count()
        return try await client.confirmSignIn(password: password, clientMetadata: clientMetadata)
    }
    func confirmSignIn(otpCode: String, clientMetadata: [String: String]) async throws -> SignInStep {
        count()
        return try await client.confirmSignIn(otpCode: otpCode, clientMetadata: clientMetadata)
    }
    func confirmSignIn(passkey authenticator: any PasskeyAuthenticator, clientMetadata: [String: String]) async throws
        -> SignInStep
    {
        count()
        return try await client.confirmSignIn(passkey: authenticator, clientMetadata: clientMetadata)
    }
    func autoSignIn(clientMetadata: [String: String]) async throws -> SignInStep {
        count()
        return try await client.autoSignIn(clientMetadata: clientMetadata)
    }
    func associateWebAuthnCredential(authenticator: any PasskeyAuthenticator) async throws {
        try await client.associateWebAuthnCredential(authenticator: authenticator)
    }
    func listWebAuthnCredentials() async throws -> [WebAuthnCredential] { try await client.listWebAuthnCredentials() }
    func deleteWebAuthnCredential(credentialId: String) async throws {
        try await client.deleteWebAuthnCredential(credentialId: credentialId)
    }
    func fetchAuthFactors() async throws -> [FirstFactor] { try await client.fetchAuthFactors() }
    func currentSession() async throws -> AuthTokens { try await client.currentSession() }
    func refreshSession() async throws -> AuthTokens { try await client.refreshSession() }
    func authSession() async throws -> AuthSession { try await client.authSession() }
    func awsCredentials() async throws -> AWSCredentials { try await client.awsCredentials() }
    func signOut(globally: Bool) async throws -> SignOutResult {
        count()
        return try await client.signOut(globally: globally)
    }
    func forgotPassword(username: String, clientMetadata: [String: String]) async throws -> CodeDelivery? {
        try await client.forgotPassword(username: username, clientMetadata: clientMetadata)
    }
    func confirmForgotPassword(username: String, code: String, newPassword: String, clientMetadata: [String: String])
        async throws
    {
        try await client.confirmForgotPassword(username: username, code: code, newPassword: newPassword, clientMetadata: clientMetadata)
    }
    func changePassword(old: String, new: String) async throws { try await client.changePassword(old: old, new: new) }
    func fetchUserAttributes() async throws -> [String: String] { try await client.fetchUserAttributes() }
    func updateUserAttributes(_ attributes: [String: String], clientMetadata: [String: String]) async throws
        -> [CodeDelivery]
    {
        try await client.updateUserAttributes(attributes, clientMetadata: clientMetadata)
    }
    func confirmAttribute(_ name: String, code: String) async throws { try await client.confirmAttribute(name, code: code) }
    func resendAttributeCode(_ name: String, clientMetadata: [String: String]) async throws -> CodeDelivery? {
        try await client.resendAttributeCode(name, clientMetadata: clientMetadata)
    }
    func deleteUser() async throws { try await client.deleteUser() }
    func pendingCodes() async throws -> [PendingCode] { try await client.pendingCodes() }
    func discardPendingCode(_ purpose: PendingCode.Purpose) async throws { try await client.discardPendingCode(purpose) }
    func state() async -> AuthState { await client.state() }
    func reloadState() async -> AuthState { await client.reloadState() }
    func stateStream() async -> AsyncStream<AuthState> { await client.stateStream() }
}

#if canImport(Observation)
import Observation

extension AuthModel {
    /// Waits until `condition` holds, woken by the model's own change notifications.
    func waitUntil(_ condition: @escaping @MainActor (AuthModel) -> Bool) async {
        while !condition(self) {
            await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
                withObservationTracking {
                    _ = condition(self)
                } onChange: {
                    resume.resume()
                }
            }
        }
    }
}
#endif
