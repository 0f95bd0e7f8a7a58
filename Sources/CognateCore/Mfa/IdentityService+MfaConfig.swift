import CognateProtocol
import Foundation

extension IdentityService {
    /// SetUserPoolMfaConfig: whether MFA is off, optional or required, and which factors
    /// users may use. Only authenticator apps (SOFTWARE_TOKEN_MFA) are served yet; enabling SMS
    /// or email MFA is refused rather than accepted and not enforced.
    public func setUserPoolMfaConfig(_ request: SetUserPoolMfaConfigRequest) async throws -> SetUserPoolMfaConfigResponse {
        if request.smsMfaConfiguration != nil || request.emailMfaConfiguration != nil {
            throw CognitoError.invalidParameter("SMS and email MFA are not supported by this server yet; use SoftwareTokenMfaConfiguration.")
        }
        let mode = request.mfaConfiguration
        let updated = try await store.write { transaction -> PoolRecord in
            guard var pool = try await transaction.pool(id: request.userPoolId) else { throw Self.poolNotFound(request.userPoolId) }
            if let enabled = request.softwareTokenMfaConfiguration?.enabled { pool.mfa.softwareToken = enabled }
            if let mode { pool.settings.mfaConfiguration = mode }
            if (pool.settings.mfaConfiguration ?? .off) != .off, !pool.mfa.softwareToken {
                throw CognitoError.invalidParameter("At least one MFA method must be enabled to turn MFA on.")
            }
            pool.updatedAt = self.time.now
            try await transaction.updatePool(pool)
            try await transaction.recordChange(.pool, subject: pool.id, at: pool.updatedAt)
            return pool
        }
        cache.invalidatePool(updated.id)
        let config = Self.mfaConfig(of: updated)
        return SetUserPoolMfaConfigResponse(
            softwareTokenMfaConfiguration: config.softwareTokenMfaConfiguration, mfaConfiguration: config.mfaConfiguration)
    }

    public func getUserPoolMfaConfig(_ request: GetUserPoolMfaConfigRequest) async throws -> GetUserPoolMfaConfigResponse {
        Self.mfaConfig(of: try await requirePool(request.userPoolId))
    }

    static func mfaConfig(of pool: PoolRecord) -> GetUserPoolMfaConfigResponse {
        GetUserPoolMfaConfigResponse(
            softwareTokenMfaConfiguration: SoftwareTokenMfaConfigType(enabled: pool.mfa.softwareToken),
            mfaConfiguration: pool.settings.mfaConfiguration ?? .off)
    }
}
