import CognateProtocol
import Foundation

/// Token sessions as a pool that tracks sessions sees them: each sign-in and refresh records
/// when, from where and on what device the session was last active, and a sign-in past the
/// pool's `MaxPerUser` ends the user's least recently used sessions. Nothing is written for a
/// pool that does not track sessions (the default).
struct SessionTracking: Sendable {
    let store: any Store
    let time: any TimeSource
    let codes: CodeBook
}

extension SessionTracking {
    /// A session's ID: `tkn` and 25 lowercase letters and digits, derived from its token family
    /// with the server's secret (stable, and telling nothing of the family's own identifiers).
    func sessionId(of family: TokenFamilyRecord) -> String {
        let hex = codes.pseudorandom("session|\(family.originJti)")
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var digits: [Character] = []
        var bytes = SRPEncoding.bytes(fromHex: hex) ?? []
        for _ in 0..<25 {
            // Base-36 digits of the 256-bit value, least significant first.
            var remainder = 0
            for index in bytes.indices {
                let value = remainder << 8 | Int(bytes[index])
                bytes[index] = UInt8(value / 36)
                remainder = value % 36
            }
            digits.append(alphabet[remainder])
        }
        return "tkn" + String(digits)
    }

    /// After a sign-in's commit: the new session's activity, and the user's sessions beyond the
    /// pool's limit ended, least recently used first.
    func signedIn(_ family: TokenFamilyRecord, pool: PoolRecord) async throws {
        guard let settings = pool.sessions, settings.tracking else { return }
        let now = time.now
        try await store.write { transaction in
            try await transaction.recordSessionActivity(originJti: family.originJti, Self.activity(at: now))
            let sessions = try await transaction.userSessions(poolId: pool.id, userSub: family.userSub, now: now)
            let others = sessions.filter { $0.family.originJti != family.originJti }
            let excess = others.count + 1 - settings.maxPerUser
            guard excess > 0 else { return }
            let leastRecent = others.sorted { ($0.activity?.lastActiveAt ?? $0.family.createdAt) < ($1.activity?.lastActiveAt ?? $1.family.createdAt) }
            for session in leastRecent.prefix(excess) {
                try await transaction.revokeTokenFamily(originJti: session.family.originJti, at: now)
            }
        }
    }

    /// After a refresh: the session's activity.
    func refreshed(_ family: TokenFamilyRecord, pool: PoolRecord) async throws {
        guard pool.sessions?.tracking == true else { return }
        let now = time.now
        try await store.write { try await $0.recordSessionActivity(originJti: family.originJti, Self.activity(at: now)) }
    }

    private static func activity(at now: Date) -> SessionActivity {
        SessionActivity(
            lastActiveAt: now, address: RequestOrigin.clientAddress.map { String($0.prefix(128)) },
            deviceType: DeviceDescription.of(userAgent: RequestOrigin.userAgent))
    }
}
