import CognateProtocol
import Foundation

extension DeviceManagement {
    /// RegisterDevicePin: the PIN verifier of the device the access token was issued to.
    /// Registering or replacing a PIN needs fresh proof: the token's sign-in (by password, or by
    /// the current PIN) at most ``pinRegistrationFreshness`` ago — a token from a refresh keeps
    /// its sign-in's time, so a stolen refresh token (or an old access token) cannot set a PIN.
    /// Replacing a PIN starts the count of wrong PINs afresh. The user is told by a message
    /// (their verified email, else verified phone number) through the delivery queue.
    public func registerDevicePin(_ request: RegisterDevicePinRequest) async throws -> EmptyResponse {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        guard caller.pool.pinPolicy != nil else { throw DeviceTrust.pinSignInOff }
        guard caller.deviceKey == request.deviceKey else {
            throw CognitoError.notAuthorized("The access token was not issued to this device.")
        }
        let now = time.now
        guard now.timeIntervalSince(caller.authTime) <= Self.pinRegistrationFreshness else {
            throw CognitoError.notAuthorized(
                "Registering a PIN needs a fresh sign-in: sign in with the password or the current PIN, then register it "
                    + "within \(Int(Self.pinRegistrationFreshness / 60)) minutes.")
        }
        let (salt, verifier) = try DeviceTrust.srpVerifier(request.pinVerifierConfig, member: "PinVerifierConfig")
        let notice = try await store.write { transaction in
            guard var device = try await deviceTrust.knownDevice(request.deviceKey, of: caller.user, pool: caller.pool, in: transaction)
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
}
