import Foundation

/// This device as a pool that tracks devices knows it (NewDeviceMetadata, then ConfirmDevice):
/// its key, group key, and the random secret whose SRP verifier the pool keeps. Stored in the
/// profile's record with the tokens; the secret is not part of its descriptions.
public struct RememberedDevice: Sendable, Equatable, Codable, CustomStringConvertible {
    public var deviceKey: String
    public var groupKey: String
    var password: String

    public var description: String { "RememberedDevice(\(deviceKey))" }
}

/// A device of the signed-in user, as ``AuthClient/fetchDevices()`` lists them.
public struct AuthDevice: Sendable, Equatable {
    public var deviceKey: String
    public var name: String?
    /// Remembered devices skip MFA.
    public var remembered: Bool
    public var lastAuthenticated: Date?
}
