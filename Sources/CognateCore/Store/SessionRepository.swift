import Foundation

/// A pool's user-session settings (SetUserPoolSessionConfiguration): whether sessions are
/// tracked, and how many token sessions a user may have at once.
public struct PoolSessionSettings: Sendable, Equatable, Codable {
    public var tracking: Bool
    public var maxPerUser: Int

    public init(tracking: Bool, maxPerUser: Int) {
        self.tracking = tracking
        self.maxPerUser = maxPerUser
    }

    /// Cognito's defaults: not tracked, 20 per user.
    public static let defaults = PoolSessionSettings(tracking: false, maxPerUser: 20)
}

/// What a tracked token session was last seen doing: when, from which address and device.
public struct SessionActivity: Sendable, Equatable {
    public var lastActiveAt: Date
    public var address: String?
    public var deviceType: String?

    public init(lastActiveAt: Date, address: String?, deviceType: String?) {
        self.lastActiveAt = lastActiveAt
        self.address = address
        self.deviceType = deviceType
    }
}

/// A user's token session: its token family and, where the pool tracks sessions, its activity.
public struct UserSessionRecord: Sendable, Equatable {
    public var family: TokenFamilyRecord
    public var activity: SessionActivity?

    public init(family: TokenFamilyRecord, activity: SessionActivity?) {
        self.family = family
        self.activity = activity
    }
}

public protocol SessionRepository: Sendable {
    /// Records a token session's latest activity (inserted or replaced).
    func recordSessionActivity(originJti: String, _ activity: SessionActivity) async throws
    /// The user's live token sessions (not revoked, not expired at `now`), oldest first.
    func userSessions(poolId: String, userSub: String, now: Date) async throws -> [UserSessionRecord]
}
