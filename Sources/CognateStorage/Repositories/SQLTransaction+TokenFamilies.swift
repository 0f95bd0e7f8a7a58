import Foundation
import CognateCore


extension SQLTransaction: TokenFamilyRepository {
    func insertTokenFamily(_ family: TokenFamilyRecord) async throws {
        try await insert(
            """
            INSERT INTO token_families (origin_jti, pool_id, client_id, user_sub, refresh_token_hash, auth_time, created_at, \
            expires_at, revoked_at, device_key, scopes) VALUES (\(bind: family.originJti), \(bind: family.poolId), \
            \(bind: family.clientId), \(bind: family.userSub), \(bind: family.refreshTokenHash), \
            \(bind: Columns.time(family.authTime)), \(bind: Columns.time(family.createdAt)), \
            \(bind: Columns.time(family.expiresAt)), \(bind: family.revokedAt.map(Columns.time)), \(bind: family.deviceKey), \
            \(bind: family.scopes?.joined(separator: " ")))
            """, conflict: .tokenFamily)
    }

    func tokenFamily(refreshTokenHash: String) async throws -> TokenFamilyRecord? {
        if let current = try await first("SELECT * FROM token_families WHERE refresh_token_hash = \(bind: refreshTokenHash)") {
            return try Self.family(from: current)
        }
        return try await first("SELECT * FROM token_families WHERE previous_refresh_token_hash = \(bind: refreshTokenHash)")
            .map(Self.family(from:))
    }

    func rotateRefreshToken(originJti: String, presentedHash: String, newHash: String, previousValidUntil: Date) async throws
        -> Bool
    {
        try await first(
            """
            UPDATE token_families SET refresh_token_hash = \(bind: newHash), \
            previous_refresh_token_hash = CASE WHEN refresh_token_hash = \(bind: presentedHash) THEN \(bind: presentedHash) \
            ELSE previous_refresh_token_hash END, \
            previous_valid_until = CASE WHEN refresh_token_hash = \(bind: presentedHash) \
            THEN \(bind: Columns.time(previousValidUntil)) ELSE previous_valid_until END \
            WHERE origin_jti = \(bind: originJti) AND (refresh_token_hash = \(bind: presentedHash) \
            OR previous_refresh_token_hash = \(bind: presentedHash)) RETURNING origin_jti
            """) != nil
    }

    func tokenFamily(originJti: String) async throws -> TokenFamilyRecord? {
        try await first("SELECT * FROM token_families WHERE origin_jti = \(bind: originJti)").map(Self.family(from:))
    }

    func revokeTokenFamily(originJti: String, at date: Date) async throws {
        try await run(
            """
            UPDATE token_families SET revoked_at = \(bind: Columns.time(date)) \
            WHERE origin_jti = \(bind: originJti) AND revoked_at IS NULL
            """)
    }

    func setTokenFamilyScopes(originJti: String, scopes: [String]) async throws {
        try await run(
            "UPDATE token_families SET scopes = \(bind: scopes.joined(separator: " ")) WHERE origin_jti = \(bind: originJti)")
    }

    func revokeTokenFamilies(poolId: String, userSub: String, at date: Date) async throws {
        try await run(
            """
            UPDATE token_families SET revoked_at = \(bind: Columns.time(date)) \
            WHERE pool_id = \(bind: poolId) AND user_sub = \(bind: userSub) AND revoked_at IS NULL
            """)
    }

    static func family(from row: SQLRow) throws -> TokenFamilyRecord {
        TokenFamilyRecord(
            originJti: try row.string("origin_jti"), poolId: try row.string("pool_id"), clientId: try row.string("client_id"),
            userSub: try row.string("user_sub"), refreshTokenHash: try row.optionalString("refresh_token_hash"),
            authTime: try row.date("auth_time"), createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"),
            revokedAt: try row.optionalDate("revoked_at"), deviceKey: try row.optionalString("device_key"),
            scopes: try row.optionalString("scopes").map { $0.split(separator: " ").map(String.init) },
            previousRefreshTokenHash: try row.optionalString("previous_refresh_token_hash"),
            previousValidUntil: try row.optionalDate("previous_valid_until"))
    }
}
