import CognateCore
import Foundation

extension SQLTransaction: MfaRepository {
    func userMfa(poolId: String, sub: String) async throws -> UserMfaRecord? {
        try await first("SELECT * FROM user_mfa WHERE pool_id = \(bind: poolId) AND user_sub = \(bind: sub)").map { row in
            UserMfaRecord(
                poolId: try row.string("pool_id"), userSub: try row.string("user_sub"),
                totpSecret: try row.optionalString("totp_secret"), pendingTotpSecret: try row.optionalString("totp_pending_secret"),
                totpName: try row.optionalString("totp_name"), totpEnabled: try row.int("totp_enabled") != 0,
                lastTotpStep: try row.optionalInt64("totp_last_step"), smsEnabled: try row.int("sms_enabled") != 0,
                emailEnabled: try row.int("email_enabled") != 0, preferred: try row.optionalString("preferred"),
                updatedAt: try row.date("updated_at"))
        }
    }

    func saveUserMfa(_ record: UserMfaRecord) async throws {
        let enabled = record.totpEnabled ? 1 : 0
        let sms = record.smsEnabled ? 1 : 0
        let email = record.emailEnabled ? 1 : 0
        let at = Columns.time(record.updatedAt)
        try await run(
            """
            INSERT INTO user_mfa (pool_id, user_sub, totp_secret, totp_pending_secret, totp_name, totp_enabled, \
            totp_last_step, sms_enabled, email_enabled, preferred, updated_at) VALUES (\(bind: record.poolId), \(bind: record.userSub), \
            \(bind: record.totpSecret), \(bind: record.pendingTotpSecret), \(bind: record.totpName), \(bind: enabled), \
            \(bind: record.lastTotpStep), \(bind: sms), \(bind: email), \(bind: record.preferred), \(bind: at)) \
            ON CONFLICT (pool_id, user_sub) DO UPDATE SET totp_secret = \(bind: record.totpSecret), \
            totp_pending_secret = \(bind: record.pendingTotpSecret), totp_name = \(bind: record.totpName), \
            totp_enabled = \(bind: enabled), totp_last_step = \(bind: record.lastTotpStep), \
            sms_enabled = \(bind: sms), email_enabled = \(bind: email), \
            preferred = \(bind: record.preferred), updated_at = \(bind: at)
            """, changing: .user(poolId: record.poolId, sub: record.userSub))
    }

    func useTotpStep(poolId: String, sub: String, step: Int64) async throws -> Bool {
        try await first(
            """
            UPDATE user_mfa SET totp_last_step = \(bind: step) WHERE pool_id = \(bind: poolId) AND user_sub = \(bind: sub) \
            AND (totp_last_step IS NULL OR totp_last_step < \(bind: step)) RETURNING user_sub
            """, changing: .nothingCached) != nil
    }
}
