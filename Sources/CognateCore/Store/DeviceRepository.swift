import Foundation

/// A device a user signed in on, in a pool that tracks devices. It is created when tokens
/// first go to it (NewDeviceMetadata) and becomes usable for sign-in once ConfirmDevice gave
/// its SRP verifier; `remembered` devices skip MFA.
public struct DeviceRecord: Sendable, Equatable {
    public var deviceKey: String
    public var poolId: String
    public var userSub: String
    public var groupKey: String
    /// The device secret's SRP salt and verifier (hex); nil until confirmed.
    public var salt: String?
    public var verifier: String?
    public var name: String?
    public var remembered: Bool
    public var createdAt: Date
    public var updatedAt: Date
    public var lastAuthenticatedAt: Date?
    /// The SRP verifier of the secret the device derives from its PIN (PIN sign-in), if one
    /// was registered.
    public var pin: DevicePin?

    public init(deviceKey: String, poolId: String, userSub: String, groupKey: String, salt: String? = nil,
                verifier: String? = nil, name: String? = nil, remembered: Bool = false, createdAt: Date, updatedAt: Date,
                lastAuthenticatedAt: Date? = nil, pin: DevicePin? = nil) {
        self.deviceKey = deviceKey
        self.poolId = poolId
        self.userSub = userSub
        self.groupKey = groupKey
        self.salt = salt
        self.verifier = verifier
        self.name = name
        self.remembered = remembered
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastAuthenticatedAt = lastAuthenticatedAt
        self.pin = pin
    }

    public var isConfirmed: Bool { verifier != nil }
}

/// A device's PIN verifier (hex salt and verifier), when it was registered, and the wrong
/// PINs answered in a row since it was registered or last right.
public struct DevicePin: Sendable, Equatable {
    public var salt: String
    public var verifier: String
    public var registeredAt: Date
    public var failures: Int

    public init(salt: String, verifier: String, registeredAt: Date, failures: Int = 0) {
        self.salt = salt
        self.verifier = verifier
        self.registeredAt = registeredAt
        self.failures = failures
    }
}

public protocol DeviceRepository: Sendable {
    func insertDevice(_ device: DeviceRecord) async throws
    func device(poolId: String, key: String) async throws -> DeviceRecord?
    func updateDevice(_ device: DeviceRecord) async throws
    func deleteDevice(poolId: String, key: String) async throws
    /// The user's confirmed devices by key, starting after `after`.
    func devices(poolId: String, userSub: String, after: String?, limit: Int) async throws -> Page<DeviceRecord>
    /// Ends every token family issued to the device.
    func revokeTokenFamilies(poolId: String, deviceKey: String, at date: Date) async throws
    /// Takes back what the user's devices were trusted with: every registered PIN is removed
    /// and no device stays remembered (the devices themselves remain, confirmed).
    func withdrawDeviceTrust(poolId: String, userSub: String, at date: Date) async throws
}
