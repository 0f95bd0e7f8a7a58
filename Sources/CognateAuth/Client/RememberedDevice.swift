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
    /// The user the device was registered for (nil in records written before it was kept).
    var owner: DeviceOwner?

    /// Whether a PIN signs this profile in on this device.
    public var hasPIN: Bool { pin != nil }

    public var description: String { "RememberedDevice(\(deviceKey)\(pin == nil ? "" : ", PIN"))" }
}

/// Whose a registered device is: the user's `sub`, and the names that user signs in with
/// (lowercased: the internal username, email, phone number, preferred username, and the names
/// typed at sign-ins that used the device). A sign-in sends the device's key only for one of
/// these names, so a profile never offers one user's device to another user's sign-in.
struct DeviceOwner: Sendable, Equatable, Codable {
    var sub: String
    var names: [String]

    init(_ user: AuthUser, signInName: String?) {
        sub = user.userId
        names = []
        add(user, signInName: signInName)
    }

    /// Adds the user's current names and the name just typed.
    mutating func add(_ user: AuthUser, signInName: String?) {
        let candidates = [user.username, user.userId, signInName] + ["email", "phone_number", "preferred_username"].map {
            user.attributes[$0]
        }
        for name in candidates.compactMap({ $0?.lowercased() }) where !name.isEmpty && !names.contains(name) {
            names.append(name)
        }
    }

    func answers(to name: String) -> Bool { names.contains(name.lowercased()) }
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
