import CognateCore
import Foundation

extension SQLTransaction: SessionRepository {
    func recordSessionActivity(originJti: String, _ activity: SessionActivity) async throws {
        try await run(
            """
            INSERT INTO session_activity (origin_jti, last_active_at, last_ip_address, device_type) VALUES \
            (\(bind: originJti), \(bind: Columns.time(activity.lastActiveAt)), \(bind: activity.address), \
            \(bind: activity.deviceType)) ON CONFLICT (origin_jti) DO UPDATE SET \
            last_active_at = excluded.last_active_at, last_ip_address = excluded.last_ip_address, \
            device_type = excluded.device_type
            """)
    }

    func userSessions(poolId: String, userSub: String, now: Date) async throws -> [UserSessionRecord] {
        let rows = try await all(
            """
            SELECT f.*, a.last_active_at AS activity_last_active_at, a.last_ip_address AS activity_last_ip_address, \
            a.device_type AS activity_device_type FROM token_families f \
            LEFT JOIN session_activity a ON a.origin_jti = f.origin_jti \
            WHERE f.pool_id = \(bind: poolId) AND f.user_sub = \(bind: userSub) AND f.revoked_at IS NULL \
            AND f.expires_at > \(bind: Columns.time(now)) ORDER BY f.created_at, f.origin_jti
            """)
        return try rows.map { row in
            UserSessionRecord(
                family: try Self.family(from: row),
                activity: try row.optionalDate("activity_last_active_at").map {
                    SessionActivity(
                        lastActiveAt: $0, address: try row.optionalString("activity_last_ip_address"),
                        deviceType: try row.optionalString("activity_device_type"))
                })
        }
    }
}
