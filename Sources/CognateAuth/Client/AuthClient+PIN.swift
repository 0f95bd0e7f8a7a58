import CognateProtocol
import Crypto
import Foundation

/// PIN sign-in on a registered device (Cognate's extension; see docs/sdk.md).
///
/// A profile whose device is registered can add a PIN: the SDK draws a 256-bit key, keeps it
/// in the profile's record, and registers with the pool only the SRP verifier of
/// HMAC-SHA256(key, PIN). Neither the PIN nor that secret is stored anywhere: someone holding
/// the device's store cannot test PINs without the server, which forgets the device after the
/// pool's number of wrong PINs; someone holding the server's database lacks the key.
extension AuthClient {
    /// The pool's PIN rules (`GetPinPolicy`); nil when the pool offers no PIN sign-in.
    public func pinPolicy() async throws -> PinPolicy? {
        try await channel.send(CognitoAPI.GetPinPolicy.self, GetPinPolicyRequest(clientId: configuration.clientId)).pinPolicy
    }

    /// Registers `pin` for signing this profile in on this device (replacing an earlier PIN).
    /// Needs a signed-in user on a registered device (the pool tracks devices).
    /// - Throws: ``AuthError`` — `pinPolicyViolation` with every rule the PIN breaks (checked
    ///   here; nothing is sent), `invalidUserPoolConfiguration` when the pool offers no PIN
    ///   sign-in, `invalidState` without a registered device, `notSignedIn`.
    public func registerPIN(_ pin: String) async throws {
        guard let policy = try await pinPolicy() else {
            throw AuthError.invalidUserPoolConfiguration("PIN sign-in is not enabled for the user pool.")
        }
        let violations = policy.violations(of: pin)
        guard violations.isEmpty else { throw AuthError.pinPolicyViolation(violations) }
        let device = try await requireDevice()
        guard let username = try await loadRecord().tokens?.user.username else { throw AuthError.notSignedIn }
        let key = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let secret = Self.pinSecret(pin, key: key)
        let verifier = try await OffActor.run {
            SRPClient.deviceVerifier(deviceGroupKey: device.groupKey, deviceKey: device.deviceKey, devicePassword: secret)
        }
        try await withAccessToken { accessToken in
            _ = try await channel.send(CognitoAPI.RegisterDevicePin.self, RegisterDevicePinRequest(
                accessToken: accessToken, deviceKey: device.deviceKey,
                pinVerifierConfig: DeviceSecretVerifierConfigType(passwordVerifier: verifier.passwordVerifier, salt: verifier.salt)))
        }
        try await updateRecord { $0.device?.pin = PINRegistration(key: key, username: username) }
    }

    /// Signs in with the PIN registered for `profile` (this client's profile when nil; another
    /// name makes this client continue in that profile, as a profile picker does — but only
    /// once the server accepted the PIN: a wrong PIN leaves the client where it was).
    ///
    /// The PIN authenticates to the server (it proves the device and the user there); it does
    /// not encrypt or lock anything on the device. For a PIN that unlocks the app, see
    /// ``lock()``.
    /// - Returns: `.signedIn` (tokens stored in the profile).
    /// - Throws: ``AuthError`` — `pinPolicyViolation` for a PIN that cannot be right (empty,
    ///   not digits, longer than any PIN: checked here, no attempt spent);
    ///   `incorrectPIN(remainingAttempts:)`; `pinAttemptsExhausted` once the server forgot the
    ///   device (the profile is wiped here too); `pinNotRegistered` when the profile has no PIN
    ///   or the server no longer knows the device (its registration is dropped here);
    ///   `notAuthorized` for a disabled user.
    public func signIn(withPIN pin: String, profile name: String? = nil) async throws -> SignInStep {
        let target = name ?? profile
        let record = try await loadRecord(of: target)
        guard let device = record.device, let registration = device.pin else { throw AuthError.pinNotRegistered }
        let malformed = Self.malformedPINViolations(pin)
        guard malformed.isEmpty else { throw AuthError.pinPolicyViolation(malformed) }
        let username = registration.username
        let secret = Self.pinSecret(pin, key: registration.key)
        let response: AuthResponse
        do {
            let srp = try await OffActor.run { SRPClient() }
            let started = try await channel.send(CognitoAPI.InitiateAuth.self, InitiateAuthRequest(
                authFlow: .devicePinAuth,
                authParameters: withSecretHash(
                    ["USERNAME": username, "DEVICE_KEY": device.deviceKey, "SRP_A": srp.publicValueHex], username: username),
                clientId: configuration.clientId))
            response = try await answerDevicePasswordVerifier(
                AuthResponse(started), srp: srp, device: device, secret: secret, username: username)
        } catch AuthError.notAuthorized(let message) where message.hasPrefix("Incorrect PIN") {
            guard let left = Self.remainingAttempts(in: message) else {
                if target == profile { try await clearProfile(keepingDevice: false) } else { try await write(ProfileRecord(), to: target) }
                throw AuthError.pinAttemptsExhausted
            }
            throw AuthError.incorrectPIN(remainingAttempts: left)
        } catch AuthError.resourceNotFound, AuthError.notAuthorized("No PIN is registered for this device.") {
            var dropped = try await loadRecord(of: target)
            dropped.device = nil
            try await write(dropped, to: target)
            if target == profile { publishDerived(from: dropped) }
            throw AuthError.pinNotRegistered
        }
        // The server accepted the PIN: only now does the client move to that profile.
        if target != profile { await switchProfile(to: target) }
        pendingChallenge = nil
        return try await nextStep(after: response, username: username)
    }

    /// The rules a PIN breaks whatever the pool's policy (checked before an attempt is spent):
    /// empty, not ASCII digits, or longer than any policy allows.
    static func malformedPINViolations(_ pin: String) -> [PinPolicyViolation] {
        if pin.isEmpty { return [.tooShort(minimum: 1)] }
        if !pin.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) { return [.notDigits] }
        if pin.count > 64 { return [.tooLong(maximum: 64)] }
        return []
    }

    /// Another profile's record (empty when none is stored), without switching to it.
    func loadRecord(of name: String) async throws -> ProfileRecord {
        if name == profile { return try await loadRecord() }
        do {
            return try await configuration.tokenStore.load(profile: name) ?? ProfileRecord()
        } catch {
            throw AuthError.storage(error)
        }
    }

    /// Locks this profile for apps that use the PIN as an unlock: the tokens are dropped from
    /// the store (and so from memory: the client keeps none; identity-pool AWS credentials in
    /// memory are dropped too) at once, even offline, then the refresh token is revoked on the
    /// server. The device, its PIN key, pending codes, registration progress and the stored
    /// identity-pool identity stay, so ``signIn(withPIN:profile:)`` unlocks again. The state
    /// becomes ``AuthState/signedOut``.
    /// - Returns: whether the server revoked the refresh token (`localOnly` says why not; the
    ///   tokens are gone here either way).
    /// - Throws: ``AuthError/storage(_:)`` when the store cannot be read or written (nothing
    ///   was changed then).
    @discardableResult
    public func lock() async throws -> SignOutResult {
        var dropped: AuthTokens?
        try await updateRecord { record in
            dropped = record.tokens
            record.tokens = nil
        }
        pendingChallenge = nil
        confirmedSignUp = nil
        await identityPool?.forget()
        broadcaster.publish(.signedOut)
        guard let dropped else { return .complete }
        do {
            _ = try await channel.send(CognitoAPI.RevokeToken.self, RevokeTokenRequest(
                token: dropped.refreshToken, clientId: configuration.clientId, clientSecret: configuration.clientSecret))
            return .complete
        } catch let error as AuthError {
            return .localOnly(error)
        } catch {
            return .localOnly(.network(error))
        }
    }

    /// Changes this profile's PIN: a sign-in with the current one (so a wrong `current` counts
    /// as a wrong PIN), then ``registerPIN(_:)`` with the new one, checked against the policy first.
    public func changePIN(from current: String, to new: String) async throws {
        if let policy = try await pinPolicy() {
            let violations = policy.violations(of: new)
            guard violations.isEmpty else { throw AuthError.pinPolicyViolation(violations) }
        }
        guard case .signedIn = try await signIn(withPIN: current) else {
            throw AuthError.invalidState("The PIN sign-in did not complete.")
        }
        try await registerPIN(new)
    }

    /// The profiles of the store that can sign in with a PIN on this device (for a profile
    /// picker). Profiles that cannot be read are left out.
    public func pinProfiles() async throws -> [PINProfile] {
        let store = configuration.tokenStore
        var found: [PINProfile] = []
        for name in try await storedProfileNames() {
            if let pin = try? await store.load(profile: name)?.device?.pin {
                found.append(PINProfile(profile: name, username: pin.username))
            }
        }
        return found
    }

    /// Deregisters `profile` from this device (see ``deregister()``): this client continues
    /// in that profile, which is then empty.
    @discardableResult
    public func deregister(profile name: String) async throws -> SignOutResult {
        if name != profile { await switchProfile(to: name) }
        return try await deregister()
    }

    /// Makes this client read and write another profile of the store from now on.
    func switchProfile(to name: String) async {
        profile = name
        pendingChallenge = nil
        await reloadState()
    }

    /// The secret PIN sign-in proves: HMAC-SHA256 of the PIN under the device's key, base64.
    static func pinSecret(_ pin: String, key: Data) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(pin.utf8), using: SymmetricKey(data: key))).base64EncodedString()
    }

    /// The attempts the server says are left ("Incorrect PIN. 2 attempts left."); nil when
    /// none are (the device was forgotten).
    static func remainingAttempts(in message: String) -> Int? {
        guard !message.contains("forgotten") else { return nil }
        let words = message.split(separator: " ")
        guard let index = words.firstIndex(where: { $0.hasPrefix("attempt") }), index > 0 else { return nil }
        return Int(words[index - 1])
    }
}
