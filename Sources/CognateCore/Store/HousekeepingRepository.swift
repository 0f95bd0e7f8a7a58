import Foundation

/// Records that expire, and what "expired" means for each (see `Housekeeping.sweepExpired`).
public enum ExpiringRecords: String, CaseIterable, Sendable {
    /// Challenge sessions and SRP exchanges, by `expires_at`.
    case authSessions
    /// Outbox messages, by `expires_at`.
    case outbox
    /// Token families, by `expires_at` (the refresh token's expiry).
    case tokenFamilies
    /// Codes, by `expires_at`.
    case codes
    /// Rate-limit and allowance counters, by the start of their window.
    case counters
    /// Failed sign-in records, by the last failure (and only once any lockout has ended).
    case signInFailures
    /// Configuration change notices, by when the change happened.
    case changeFeed
    /// Signing keys, by `expires_at`, or by `retired_at` for retired ones.
    case signingKeys
    /// Devices announced with tokens (NewDeviceMetadata) but never confirmed, by creation.
    case unconfirmedDevices
}

public protocol HousekeepingRepository: Sendable {
    /// Deletes up to `limit` records of `kind` that expired before `date`; returns how many.
    func deleteExpired(_ kind: ExpiringRecords, before date: Date, limit: Int) async throws -> Int
}
