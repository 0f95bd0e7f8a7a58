import CognateProtocol
import Foundation

/// Remembered devices as a sign-in sees them: the user's known device, a new one tracked, the
/// device's own proof asked for.
struct DeviceTrust: Sendable {
    let time: any TimeSource
    let random: any RandomSource
    let configuration: CoreConfiguration
    let authSessions: AuthSessionBook
}

extension DeviceTrust {
    /// The user's device named by the sign-in's DEVICE_KEY, when the pool tracks devices and
    /// the device is confirmed (an unknown or foreign key is ignored, as a new device).
    func knownDevice(_ key: String?, of user: UserRecord, pool: PoolRecord,
                     in transaction: any StoreTransaction) async throws -> DeviceRecord? {
        guard pool.settings.deviceConfiguration != nil, let key, !key.isEmpty,
            let device = try await transaction.device(poolId: pool.id, key: key),
            device.userSub == user.sub, device.isConfirmed
        else { return nil }
        return device
    }

    /// A device receiving tokens for the first time in a pool that tracks devices: created
    /// unconfirmed with a new key (`<region>_<uuid>`) and group key, for ConfirmDevice.
    func trackNewDevice(of user: UserRecord, pool: PoolRecord,
                        in transaction: any StoreTransaction) async throws -> DeviceRecord? {
        guard pool.settings.deviceConfiguration != nil else { return nil }
        let now = time.now
        let device = DeviceRecord(
            deviceKey: "\(configuration.region)_\(random.uuid().lowercased())", poolId: pool.id, userSub: user.sub,
            groupKey: "-" + String(Base64URL.encode(random.bytes(6)).prefix(8)), createdAt: now, updatedAt: now)
        try await transaction.insertDevice(device)
        return device
    }

    /// DEVICE_SRP_AUTH: the device must prove its secret. The pending step is answered with the
    /// challenge's `Session`, or without one (clients such as pycognito send none): then it is
    /// found by user and device. Either way it lasts the session lifetime of the first factor
    /// that led here, and only a right DEVICE_PASSWORD_VERIFIER claim uses it up.
    func deviceChallenge(_ device: DeviceRecord, user: UserRecord, pool: PoolRecord, client: ClientRecord,
                         in transaction: any StoreTransaction) async throws -> AuthOutcome {
        let named = Self.deviceStepToken(pool: pool, user: user, deviceKey: device.deviceKey)
        let step = DeviceSRPSessionState(username: user.username, deviceKey: device.deviceKey)
        _ = try await transaction.consumeAuthSession(tokenHash: AuthSessions.hash(named))  // an earlier, unanswered one
        let session = try await authSessions.openAuthSession(
            .deviceSrpAuth, state: step, user: user, pool: pool, client: client, encoding: .session, in: transaction)
        var byName = step
        byName.stepTokenHashes = [AuthSessions.hash(session)]
        _ = try await authSessions.openAuthSession(
            .deviceSrpAuth, state: byName, user: user, pool: pool, client: client, encoding: .session, token: named,
            in: transaction)
        return .challenge(.deviceSrpAuth, parameters: ["USERNAME": user.username], session: session)
    }

    /// The salt (hex) and verifier of the device's secret, or of its PIN.
    static func verifier(of device: DeviceRecord, pin: Bool) -> (salt: String, verifier: [UInt8])? {
        let pair = pin ? device.pin.map { ($0.salt, $0.verifier) } : device.salt.flatMap { salt in device.verifier.map { (salt, $0) } }
        guard let (salt, hex) = pair, let verifier = SRPEncoding.bytes(fromHex: hex) else { return nil }
        return (salt, verifier)
    }

    /// The name of a pending DEVICE_SRP_AUTH step: derived from pool, user and device, so an
    /// answer without Session finds it; only the server can create it (after a first factor).
    static func deviceStepToken(pool: PoolRecord, user: UserRecord, deviceKey: String) -> String {
        "device-srp|\(pool.id)|\(user.sub)|\(deviceKey)"
    }
}

extension DeviceTrust {
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
