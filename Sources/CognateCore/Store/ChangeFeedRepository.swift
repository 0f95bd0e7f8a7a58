import Foundation

/// What changed in the configuration every node caches.
public enum ChangeTopic: String, Sendable {
    /// A pool's settings (subject: the pool id).
    case pool
    /// An app client's settings (subject: the client id).
    case client
    /// A pool's signing keys (subject: the pool id, or `*` for every pool).
    case signingKeys
    /// A function binding (subject: the ARN).
    case functions
}

/// One change, as the feed reports it.
public struct ChangeNotice: Sendable, Equatable {
    public var id: Int64
    public var topic: ChangeTopic
    public var subject: String
    public var changedAt: Date

    public init(id: Int64, topic: ChangeTopic, subject: String, changedAt: Date) {
        self.id = id
        self.topic = topic
        self.subject = subject
        self.changedAt = changedAt
    }
}

/// A feed of configuration changes: writers record a notice in the transaction that makes the
/// change, and every node polls the feed to drop what it cached (see `Housekeeping.applyChanges`).
public protocol ChangeFeedRepository: Sendable {
    func recordChange(_ topic: ChangeTopic, subject: String, at date: Date) async throws
    /// Notices of changes at or after `date`, in id order (unknown topics skipped).
    func changes(since date: Date) async throws -> [ChangeNotice]
}
