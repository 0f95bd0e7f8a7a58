import CognateCore
import Foundation

extension SQLTransaction: PasskeyRepository {
    func insertPasskey(_ passkey: PasskeyRecord) async throws {
        try await insert(
            """
            INSERT INTO passkeys (pool_id, credential_id, user_sub, public_key, sign_count, backup_eligible, \
            relying_party_id, friendly_name, attachment, transports, aaguid, created_at, last_used_at) VALUES (\
            \(bind: passkey.poolId), \(bind: passkey.credentialId), \(bind: passkey.userSub), \
            \(bind: Data(passkey.publicKey).base64EncodedString()), \(bind: Int64(passkey.signCount)), \
            \(bind: passkey.backupEligible ? 1 : 0), \(bind: passkey.relyingPartyId), \(bind: passkey.friendlyName), \
            \(bind: passkey.attachment), \(bind: passkey.transports.joined(separator: ",")), \(bind: passkey.aaguid), \
            \(bind: Columns.time(passkey.createdAt)), \(bind: passkey.lastUsedAt.map(Columns.time)))
            """, conflict: .passkey)
    }

    func passkey(poolId: String, credentialId: String) async throws -> PasskeyRecord? {
        try await first("SELECT * FROM passkeys WHERE pool_id = \(bind: poolId) AND credential_id = \(bind: credentialId)")
            .map(Self.passkey(from:))
    }

    func passkeys(poolId: String, userSub: String, after: String?, limit: Int) async throws -> Page<PasskeyRecord> {
        let rows = try await all(
            """
            SELECT * FROM passkeys WHERE pool_id = \(bind: poolId) AND user_sub = \(bind: userSub) \
            AND credential_id > \(bind: after ?? "") ORDER BY credential_id LIMIT \(bind: limit + 1)
            """)
        return try Self.page(rows.map(Self.passkey(from:)), limit: limit, key: \.credentialId)
    }

    func passkeyCount(poolId: String, userSub: String) async throws -> Int {
        try await first(
            "SELECT COUNT(*) AS n FROM passkeys WHERE pool_id = \(bind: poolId) AND user_sub = \(bind: userSub)"
        )?.int("n") ?? 0
    }

    func recordPasskeyUse(poolId: String, credentialId: String, signCount: UInt32, at date: Date) async throws {
        try await run(
            """
            UPDATE passkeys SET sign_count = \(bind: Int64(signCount)), last_used_at = \(bind: Columns.time(date)) \
            WHERE pool_id = \(bind: poolId) AND credential_id = \(bind: credentialId)
            """)
    }

    func deletePasskey(poolId: String, userSub: String, credentialId: String) async throws -> Bool {
        try await first(
            """
            DELETE FROM passkeys WHERE pool_id = \(bind: poolId) AND user_sub = \(bind: userSub) \
            AND credential_id = \(bind: credentialId) RETURNING credential_id
            """) != nil
    }

    static func passkey(from row: SQLRow) throws -> PasskeyRecord {
        let transports = try row.string("transports")
        return PasskeyRecord(
            credentialId: try row.string("credential_id"), poolId: try row.string("pool_id"),
            userSub: try row.string("user_sub"),
            publicKey: Array(Data(base64Encoded: try row.string("public_key")) ?? Data()),
            signCount: UInt32(clamping: try row.int64("sign_count")), backupEligible: try row.int("backup_eligible") != 0,
            relyingPartyId: try row.string("relying_party_id"), friendlyName: try row.optionalString("friendly_name"),
            attachment: try row.optionalString("attachment"),
            transports: transports.isEmpty ? [] : transports.split(separator: ",").map(String.init),
            aaguid: try row.string("aaguid"), createdAt: try row.date("created_at"),
            lastUsedAt: try row.optionalDate("last_used_at"))
    }
}
