import Foundation

/// This device as a pool that tracks devices knows it (NewDeviceMetadata, then ConfirmDevice):
/// its key, group key, and the random secret whose SRP verifier the pool keeps; once a PIN is
/// registered, what PIN sign-in needs. Stored in the profile's record with the tokens; the
/// secrets are not part of its descriptions.
public struct RememberedDevice: Sendable, Equatable, Codable, CustomStringConvertible {
    public var deviceKey: String
    public var groupKey: String
    var password: String
    var pin: PINRegistration?

    /// Whether a PIN signs this profile in on this device.
    public var hasPIN: Bool { pin != nil }

    public var description: String { "RememberedDevice(\(deviceKey)\(pin == nil ? "" : ", PIN"))" }
}

/// What this device keeps for PIN sign-in: the random 256-bit key the PIN's secret is derived
/// with (HMAC-SHA256(key, PIN); neither the PIN nor the secret is stored), and the user's name
/// for the sign-in.
struct PINRegistration: Sendable, Equatable, Codable {
    var key: Data
    var username: String
}

/// A profile of the store that can sign in with a PIN on this device, as
/// ``AuthClient/pinProfiles()`` lists them.
public struct PINProfile: Sendable, Equatable {
    /// The profile's name in the ``TokenStore`` (``AuthClient/signIn(withPIN:profile:)``).
    public var profile: String
    public var username: String
}

/// A device of the signed-in user, as ``AuthClient/fetchDevices()`` lists them.
public struct AuthDevice: Sendable, Equatable {
    public var deviceKey: String
    public var name: String?
    /// Remembered devices skip MFA.
    public var remembered: Bool
    public var lastAuthenticated: Date?
}
