import CognateProtocol
import Foundation

/// One recorded authentication event of a user (threat protection on).
public struct AuthEventRecord: Sendable, Equatable {
    public var poolId: String
    public var userSub: String
    /// The event as AdminListUserAuthEvents shows it; `eventId` and `creationDate` are set.
    public var event: AuthEventType
    /// Hash of the token a user's notification email carries for UpdateAuthEventFeedback.
    public var feedbackTokenHash: String?

    public init(poolId: String, userSub: String, event: AuthEventType, feedbackTokenHash: String? = nil) {
        self.poolId = poolId
        self.userSub = userSub
        self.event = event
        self.feedbackTokenHash = feedbackTokenHash
    }
}

public protocol AuthEventRepository: Sendable {
    func insertAuthEvent(_ record: AuthEventRecord) async throws
    func authEvent(poolId: String, eventId: String) async throws -> AuthEventRecord?
    /// Stores a changed event (its feedback).
    func updateAuthEvent(_ record: AuthEventRecord) async throws
    /// A user's events, newest first (event ids sort by time), continuing after the event id `after`.
    func authEvents(poolId: String, userSub: String, after: String?, limit: Int) async throws -> Page<AuthEventRecord>
}

/// A client's managed login branding (CreateManagedLoginBranding …).
public protocol ManagedLoginBrandingRepository: Sendable {
    /// Throws `StoreError.conflict(.managedLoginBranding)` when the client has one.
    func insertManagedLoginBranding(_ branding: ManagedLoginBrandingType, clientId: String) async throws
    func updateManagedLoginBranding(_ branding: ManagedLoginBrandingType) async throws
    func managedLoginBranding(id: String) async throws -> ManagedLoginBrandingType?
    func managedLoginBranding(clientId: String) async throws -> ManagedLoginBrandingType?
    func deleteManagedLoginBranding(id: String) async throws
}
