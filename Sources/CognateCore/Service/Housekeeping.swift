import Foundation

/// What every node does in the background: the change feed, retried deliveries, key reloads, the
/// sweep of expired records.
public struct Housekeeping: Sendable {
    let store: any Store
    let time: any TimeSource
    let cache: ConfigurationCache
    let keys: SigningKeyRing
    let deliveryQueue: DeliveryQueue
    let changeFeedCursor: ChangeFeedCursor
    let accessTokens: AccessTokenVerifier
    let triggers: Triggers
}

extension Housekeeping {
    /// How long past its own expiry each kind of record is kept before it is deleted.
    ///
    /// Token families outlive their refresh token by a day, the longest access-token lifetime,
    /// so an access token never outlives the record that can revoke it; codes are kept a day
    /// past expiry so a late but right code still answers "expired" rather than "wrong". A
    /// device announced with tokens has a day to be confirmed (clients do it right away).
    static let retentionAfterExpiry: [ExpiringRecords: TimeInterval] = [
        .authSessions: 0, .outbox: 0, .tokenFamilies: 86_400, .codes: 86_400, .counters: 86_400,
        .signInFailures: 86_400, .changeFeed: 3600, .signingKeys: 86_400, .unconfirmedDevices: 86_400,
    ]

    /// Deletes what has expired, every kind in batches of `batchSize`, each batch in its own
    /// short transaction; returns how many records went. Safe on several nodes at once.
    @discardableResult
    public func sweepExpired(batchSize: Int = 1000) async throws -> [ExpiringRecords: Int] {
        let now = time.now
        var deleted: [ExpiringRecords: Int] = [:]
        for kind in ExpiringRecords.allCases {
            let cutoff = now - (Self.retentionAfterExpiry[kind] ?? 0)
            var total = 0
            while true {
                let count = try await store.write { try await $0.deleteExpired(kind, before: cutoff, limit: batchSize) }
                total += count
                if count < batchSize { break }
            }
            deleted[kind] = total
        }
        return deleted
    }
}

extension Housekeeping {
    /// Reloads the signing keys of the pools this node uses (a safety net behind the change
    /// feed; call periodically).
    public func refreshSigningKeys() async throws { try await keys.refreshLoaded(now: time.now) }

    /// Whether the store answers.
    public func ping() async throws { try await store.ping() }
}
