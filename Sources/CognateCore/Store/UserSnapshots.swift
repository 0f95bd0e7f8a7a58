import Foundation

/// Reads for requests that only answer with what they read (GetUser, OAuth's userInfo): a
/// user, their token family's standing and their MFA settings, as the store has them — or as a
/// node's cache of them has them, where the composition root wires one in.
///
/// Contract: reflects every write this node made before the call; a write made through another
/// node (or process) within milliseconds, as the database's notice of it arrives, and within
/// seconds whatever happens. Never for a request that writes what it read.
public protocol UserSnapshots: Sendable {
    /// The user and the standing of their family `originJti`, as
    /// ``TokenFamilyRepository/user(poolId:sub:withTokenFamily:)`` reads them.
    func user(poolId: String, sub: String, withTokenFamily originJti: String) async throws
        -> (user: UserRecord, family: TokenFamilyStanding?)?
    /// The user's MFA settings as ``MfaRepository/userMfa(poolId:sub:)`` reads them, except for
    /// the last TOTP step used (which such an answer does not show).
    func mfa(poolId: String, sub: String) async throws -> UserMfaRecord?
}

/// Snapshots read from the store itself, each time: what a store without a cache serves.
public struct StoreSnapshots: UserSnapshots {
    let store: any Store

    public init(store: any Store) { self.store = store }

    public func user(poolId: String, sub: String, withTokenFamily originJti: String) async throws
        -> (user: UserRecord, family: TokenFamilyStanding?)?
    {
        try await store.read { try await $0.user(poolId: poolId, sub: sub, withTokenFamily: originJti) }
    }

    public func mfa(poolId: String, sub: String) async throws -> UserMfaRecord? {
        try await store.read { try await $0.userMfa(poolId: poolId, sub: sub) }
    }
}
