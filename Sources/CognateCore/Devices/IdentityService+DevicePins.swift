import CognateProtocol
import Foundation

/// PIN sign-in (Cognate's own extension, for apps that sign users in on a registered device
/// with a short PIN).
///
/// Contract: the PIN never leaves the device. The device derives a secret from it with a
/// 256-bit key it keeps (HMAC-SHA256(key, PIN)) and registers only the SRP verifier of that
/// secret, beside the verifier of its device secret. Signing in with the PIN is device SRP
/// against that verifier (DEVICE_PIN_AUTH → DEVICE_PASSWORD_VERIFIER), a first factor of its
/// own: possession of the device's key and knowledge of the PIN; no password and no MFA. The
/// pool's ``PinPolicy`` says how PINs must look (the device checks; the server never sees
/// one) and how many wrong PINs in a row forget the device and end every session issued to it.
extension IdentityService {
    /// SetUserPoolPinPolicy: the pool's PIN rules; without a policy, PIN sign-in is off (and
    /// registered PINs stop working).
    public func setUserPoolPinPolicy(_ request: SetUserPoolPinPolicyRequest) async throws -> PinPolicyResponse {
        if let problem = request.pinPolicy?.problem { throw CognitoError.invalidParameter(problem) }
        let updated = try await editPool(request.userPoolId) { $0.pinPolicy = request.pinPolicy }
        return PinPolicyResponse(pinPolicy: updated.pinPolicy)
    }

    /// GetPinPolicy: the PIN rules of the app client's pool (none: no PIN sign-in there).
    public func getPinPolicy(_ request: GetPinPolicyRequest) async throws -> PinPolicyResponse {
        let (pool, _) = try await requireClient(request.clientId)
        return PinPolicyResponse(pinPolicy: pool.pinPolicy)
    }

    /// RegisterDevicePin: the PIN verifier of the device the access token was issued to.
    /// Registering or replacing a PIN needs fresh proof: the token's sign-in (by password, or by
    /// the current PIN) at most ``pinRegistrationFreshness`` ago — a token from a refresh keeps
    /// its sign-in's time, so a stolen refresh token (or an old access token) cannot set a PIN.
    /// Replacing a PIN starts the count of wrong PINs afresh. The user is told by a message
    /// (their verified email, else verified phone number) through the delivery queue.
    public func registerDevicePin(_ request: RegisterDevicePinRequest) async throws -> EmptyResponse {
        let caller = try await authenticatedUser(request.accessToken)
        guard caller.pool.pinPolicy != nil else { throw Self.pinSignInOff }
        guard caller.deviceKey == request.deviceKey else {
            throw CognitoError.notAuthorized("The access token was not issued to this device.")
        }
        let now = time.now
        guard now.timeIntervalSince(caller.authTime) <= Self.pinRegistrationFreshness else {
            throw CognitoError.notAuthorized(
                "Registering a PIN needs a fresh sign-in: sign in with the password or the current PIN, then register it "
                    + "within \(Int(Self.pinRegistrationFreshness / 60)) minutes.")
        }
        let (salt, verifier) = try Self.srpVerifier(request.pinVerifierConfig, member: "PinVerifierConfig")
        let notice = try await store.write { transaction in
            guard var device = try await self.knownDevice(request.deviceKey, of: caller.user, pool: caller.pool, in: transaction)
            else { throw Self.deviceNotFound }
            device.pin = DevicePin(salt: salt, verifier: verifier, registeredAt: now)
            device.updatedAt = now
            try await transaction.updateDevice(device)
            return try await self.queuePinNotice(device, user: caller.user, pool: caller.pool, client: caller.client, in: transaction)
        }
        // A notice that cannot be sent now stays queued and is retried; the PIN is registered.
        if let notice { try? await deliveryQueue.sendNow([notice]) }
        return EmptyResponse()
    }

    /// How long after a sign-in its tokens may register or replace a PIN.
    static let pinRegistrationFreshness: TimeInterval = 300

    /// Tells the user that a PIN now signs in on one of their devices, so that a PIN they did
    /// not set is noticed: queued in the registration's transaction, due at once, to the
    /// verified email address, else the verified phone number (nothing without either), to
    /// send once the registration committed.
    private func queuePinNotice(_ device: DeviceRecord, user: UserRecord, pool: PoolRecord, client: ClientRecord,
                                in transaction: any StoreTransaction) async throws -> PendingMessage? {
        let verified = { (attribute: String) in user.attributes["\(attribute)_verified"] == "true" }
        let destination = verified("email") ? user.destination(for: "email")
            : verified("phone_number") ? user.destination(for: "phone_number") : nil
        guard let destination else { return nil }
        let deviceName = device.name.map { " (\($0))" } ?? ""
        let body = "A PIN was set to sign in to \(user.username) on a device\(deviceName). "
            + "If this was not you, sign out everywhere and change your password."
        return try await deliveryQueue.enqueue(OutboundMessage(
            poolId: pool.id, username: user.username, medium: destination.medium, destination: destination.address,
            subject: destination.medium == .email ? "A PIN was set for your account" : nil, body: body, code: nil,
            purpose: "pinRegistered", sender: pool.settings.emailConfiguration?.from, clientId: client.clientId),
            pool: pool, in: transaction)
    }

    /// DEVICE_PIN_AUTH (USERNAME, DEVICE_KEY, SRP_A): DEVICE_PASSWORD_VERIFIER over the
    /// device's PIN verifier.
    func startPinAuth(_ parameters: [String: String], pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        guard pool.pinPolicy != nil else { throw Self.pinSignInOff }
        return try await openDevicePasswordVerifier(parameters, pin: true, pool: pool, client: client) { _, _, _ in [] }
    }

    /// A wrong PIN, counted since the PIN was registered or last right; the policy's
    /// `maximumAttempts`-th in a row forgets the device and ends its sessions. Either way the
    /// count is committed and the attempt refused.
    func refuseWrongPin(_ device: DeviceRecord, pool: PoolRecord, at now: Date, in transaction: any StoreTransaction)
        async throws -> Never
    {
        let allowed = pool.pinPolicy?.maximumAttempts ?? 1
        let since = max(device.pin?.registeredAt ?? now, device.lastAuthenticatedAt ?? .distantPast)
        let failures = try await transaction.incrementCounter(key: "pin-failures:\(device.deviceKey)", windowStart: since)
        guard failures < allowed else {
            try await transaction.deleteDevice(poolId: pool.id, key: device.deviceKey)
            try await transaction.revokeTokenFamilies(poolId: pool.id, deviceKey: device.deviceKey, at: now)
            throw CommitAndFail(CognitoError.notAuthorized(Self.deviceForgottenMessage))
        }
        let left = allowed - failures
        throw CommitAndFail(CognitoError.notAuthorized("Incorrect PIN. \(left) attempt\(left == 1 ? "" : "s") left."))
    }

    /// A base64 SRP verifier and salt as a device sends them (ConfirmDevice, RegisterDevicePin),
    /// checked and turned to hex.
    static func srpVerifier(_ config: DeviceSecretVerifierConfigType?, member: String) throws
        -> (salt: String, verifier: String)
    {
        guard let verifierText = config?.passwordVerifier,
            let verifier = Data(base64Encoded: verifierText), verifier.count <= SRPGroup.maximumPublicValueHexLength / 2,
            SRPServer.isValidClientPublicValue(Array(verifier)),
            let saltText = config?.salt, let salt = Data(base64Encoded: saltText), (1...64).contains(salt.count)
        else { throw CognitoError.invalidParameter("\(member) needs a base64 PasswordVerifier and Salt.") }
        return (SRPEncoding.hexString(Array(salt)), SRPEncoding.hexString(Array(verifier)))
    }

    static let deviceForgottenMessage = "Incorrect PIN. Too many incorrect PINs: the device was forgotten."
    static let pinSignInOff = CognitoError(.invalidUserPoolConfiguration, "PIN sign-in is not enabled for the user pool.")
    static let pinNotRegistered = CognitoError.notAuthorized("No PIN is registered for this device.")
}
