import Foundation

/// What this node has applied of the change feed.
final class ChangeFeedCursor: @unchecked Sendable {
    /// Notices are read again for this long, because on PostgreSQL a transaction that took an
    /// earlier id may commit after one that took a later id.
    static let overlap: TimeInterval = 10
    private let lock = NSLock()
    private var lastPoll: Date?
    private var applied: [Int64: Date] = [:]

    /// From when to read, and the ids already applied.
    func window(now: Date) -> (since: Date, applied: Set<Int64>) {
        lock.withLock { ((lastPoll ?? now) - Self.overlap, Set(applied.keys)) }
    }

    func record(_ notices: [ChangeNotice], polledAt now: Date) {
        lock.withLock {
            for notice in notices { applied[notice.id] = notice.changedAt }
            applied = applied.filter { now.timeIntervalSince($0.value) < Self.overlap * 2 }
            lastPoll = now
        }
    }
}

extension Housekeeping {
    /// Reads the change feed and drops what this node cached of what changed elsewhere: pool and
    /// client settings, a pool's signing keys, function bindings. Call about once a second: that is how long
    /// another node's change takes to apply here.
    public func applyChanges() async throws {
        let now = time.now
        let (since, applied) = changeFeedCursor.window(now: now)
        let notices = try await store.read { try await $0.changes(since: since) }.filter { !applied.contains($0.id) }
        for notice in notices {
            switch notice.topic {
            case .pool: cache.invalidatePool(notice.subject)
            case .client: cache.invalidateClient(notice.subject)
            case .signingKeys:
                keys.forget(poolId: notice.subject == "*" ? nil : notice.subject)
                accessTokens.verified.removeAll()
            case .functions: triggers.bindings.forget(notice.subject)
            }
        }
        changeFeedCursor.record(notices, polledAt: now)
    }
}
