import Foundation

/// What one profile keeps on the device: the signed-in user's tokens, how far a
/// ``RegistrationFlow`` got, and the codes sent and not yet entered.
public struct ProfileRecord: Sendable, Equatable, Codable {
    public var tokens: AuthTokens?
    public var registration: RegistrationProgress?
    public var pendingCodes: [PendingCode]
    /// This device as the pool tracks it, with the secret that proves it (kept with the tokens).
    public var device: RememberedDevice?
    /// The identity-pool identity of this profile (a guest's, or the signed-in user's).
    public var identity: StoredIdentity?

    public init(tokens: AuthTokens? = nil, registration: RegistrationProgress? = nil, pendingCodes: [PendingCode] = [],
                device: RememberedDevice? = nil, identity: StoredIdentity? = nil) {
        self.tokens = tokens
        self.registration = registration
        self.pendingCodes = pendingCodes
        self.device = device
        self.identity = identity
    }

    var isEmpty: Bool { tokens == nil && registration == nil && pendingCodes.isEmpty && device == nil && identity == nil }

    /// Whether the record is the user's with this `sub` (signed in, or registering).
    func belongs(toUser sub: String) -> Bool { tokens?.user.userId == sub || registration?.userSub == sub }

    /// Whether the record holds anything of a user other than `user`: tokens, registration
    /// progress or an identity-pool identity of another `sub`, or a device registered for another user (or for no one
    /// known: a device from before owners were kept, with neither tokens nor a PIN of this
    /// user beside it — such a device was not offered to this sign-in, so it is of no use).
    func holdsAnotherUser(than user: AuthUser) -> Bool {
        if let tokens, tokens.user.userId != user.userId { return true }
        if let sub = registration?.userSub, sub != user.userId { return true }
        if let device, !deviceBelongs(device, to: user) { return true }
        if let owner = identity?.userId, owner != user.userId { return true }
        return false
    }

    private func deviceBelongs(_ device: RememberedDevice, to user: AuthUser) -> Bool {
        if let owner = device.owner { return owner.sub == user.userId }
        return tokens?.user.userId == user.userId || device.pin?.username == user.username
    }

    /// The key of this record's device when it may be offered to a sign-in as `name` (one of
    /// its owner's names; for a device from before owners were kept, the PIN's or the stored
    /// tokens' username).
    func deviceKey(forSignInName name: String) -> String? {
        guard let device else { return nil }
        if let owner = device.owner { return owner.answers(to: name) ? device.deviceKey : nil }
        let legacy = [device.pin?.username, tokens?.user.username, tokens?.user.attributes["email"]].compactMap { $0?.lowercased() }
        return legacy.contains(name.lowercased()) ? device.deviceKey : nil
    }

    /// The key of this record's device when it is the user's with this `sub` (for a refresh).
    func deviceKey(forUser user: AuthUser) -> String? {
        guard let device, deviceBelongs(device, to: user) else { return nil }
        return device.deviceKey
    }

    /// Records a code (replacing an earlier one for the same purpose).
    mutating func remember(_ code: PendingCode) {
        forget(code.purpose)
        pendingCodes.append(code)
    }

    mutating func forget(_ purpose: PendingCode.Purpose) { pendingCodes.removeAll { $0.purpose == purpose } }

    enum CodingKeys: String, CodingKey { case tokens, registration, pendingCodes, device, identity }

    /// Reads records written before pending codes, devices and identities were kept, too.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tokens = try container.decodeIfPresent(AuthTokens.self, forKey: .tokens)
        registration = try container.decodeIfPresent(RegistrationProgress.self, forKey: .registration)
        pendingCodes = try container.decodeIfPresent([PendingCode].self, forKey: .pendingCodes) ?? []
        device = try container.decodeIfPresent(RememberedDevice.self, forKey: .device)
        identity = try container.decodeIfPresent(StoredIdentity.self, forKey: .identity)
    }
}

/// Secure storage of named profiles (several users of one app on one device).
///
/// Contract for implementations:
/// - ``save(_:profile:)`` and ``remove(profile:)`` touch only the named profile; after either
///   returns, ``load(profile:)`` reflects it (also from a new store instance over the same
///   location: an app killed and relaunched finds what was saved).
/// - ``profiles()`` lists the names with a saved record, sorted.
/// - Loading a profile that was never saved returns nil; removing one is not an error.
/// - Methods may be called concurrently.
public protocol TokenStore: Sendable {
    func profiles() async throws -> [String]
    func load(profile: String) async throws -> ProfileRecord?
    func save(_ record: ProfileRecord, profile: String) async throws
    func remove(profile: String) async throws
}

/// A store that forgets everything when the process ends (previews, tests, kiosk apps).
public actor InMemoryTokenStore: TokenStore {
    private var records: [String: ProfileRecord] = [:]

    public init() {}

    public func profiles() -> [String] { records.keys.sorted() }
    public func load(profile: String) -> ProfileRecord? { records[profile] }
    public func save(_ record: ProfileRecord, profile: String) { records[profile] = record }
    public func remove(profile: String) { records[profile] = nil }
}
