import CognateCore
import Foundation

/// ``UserSnapshots`` from the node's ``UserReadCache``, read from the store on a miss and kept
/// when nothing changed meanwhile.
struct CachedUserSnapshots: UserSnapshots {
    let store: SQLStore
    let cache: UserReadCache

    func user(poolId: String, sub: String, withTokenFamily originJti: String) async throws
        -> (user: UserRecord, family: TokenFamilyStanding?)?
    {
        try await fromCache(
            cached: { $0.value(poolId: poolId, sub: sub, originJti: originJti, now: $1) },
            read: { try await $0.user(poolId: poolId, sub: sub, withTokenFamily: originJti) },
            keep: { cache, found, ticket, now in
                if let found { cache.keep(found, for: originJti, ticket: ticket, now: now) }   // no user: nothing to key
            })
    }

    func mfa(poolId: String, sub: String) async throws -> UserMfaRecord? {
        try await fromCache(
            cached: { $0.mfa(poolId: poolId, sub: sub, now: $1) },
            read: { try await $0.userMfa(poolId: poolId, sub: sub) },
            keep: { cache, found, ticket, now in cache.keepMfa(found, poolId: poolId, sub: sub, ticket: ticket, now: now) })
    }

    /// What `cached` serves, or else what `read` finds, handed to `keep` with a ticket taken
    /// before the read (the cache keeps it only if nothing changed meanwhile).
    private func fromCache<Found: Sendable>(
        cached: (UserReadCache, ContinuousClock.Instant) -> Found??,
        read: @escaping @Sendable (any StoreTransaction) async throws -> Found?,
        keep: (UserReadCache, Found?, UserReadCache.Ticket, ContinuousClock.Instant) -> Void
    ) async throws -> Found? {
        let now = ContinuousClock.now
        if let served = cached(cache, now) { return served }
        let ticket = cache.ticket()
        let found = try await store.read(read)
        if let ticket { keep(cache, found, ticket, now) }
        return found
    }
}
