import CognateProtocol
import Foundation

extension PoolAdministration {
    /// SetUserPoolMfaConfig: whether MFA is off, optional or required, and which factors users
    /// may use. A request that names any factor configuration sets all three (a configuration
    /// left out turns that factor off, as in Cognito); one with only `MfaConfiguration` keeps them.
    /// SMS and email codes go through the server's delivery channels (or the pool's custom
    /// senders): the SNS role and SES settings Cognito asks for are kept, not used.
    /// `WebAuthnConfiguration` (passkeys' relying party ID, user verification, whether a
    /// passkey with user verification counts as MFA) is set when named, kept otherwise.
    public func setUserPoolMfaConfig(_ request: SetUserPoolMfaConfigRequest) async throws -> SetUserPoolMfaConfigResponse {
        let naming = request.softwareTokenMfaConfiguration != nil || request.smsMfaConfiguration != nil
            || request.emailMfaConfiguration != nil
        let updated = try await directory.editPool(request.userPoolId) { pool in
            if naming {
                pool.mfa = PoolMfaSettings(
                    softwareToken: request.softwareTokenMfaConfiguration?.enabled ?? false,
                    sms: request.smsMfaConfiguration != nil,
                    smsMessage: request.smsMfaConfiguration?.smsAuthenticationMessage,
                    email: request.emailMfaConfiguration != nil, emailMessage: request.emailMfaConfiguration?.message,
                    emailSubject: request.emailMfaConfiguration?.subject, webAuthn: pool.mfa.webAuthn)
            }
            if let webAuthn = request.webAuthnConfiguration { pool.mfa.webAuthn = webAuthn }
            if let mode = request.mfaConfiguration { pool.settings.mfaConfiguration = mode }
            if (pool.settings.mfaConfiguration ?? .off) != .off, !pool.mfa.anyFactor {
                throw CognitoError.invalidParameter("At least one MFA method must be enabled to turn MFA on.")
            }
        }
        let config = Self.mfaConfig(of: updated)
        return SetUserPoolMfaConfigResponse(
            smsMfaConfiguration: config.smsMfaConfiguration, softwareTokenMfaConfiguration: config.softwareTokenMfaConfiguration,
            emailMfaConfiguration: config.emailMfaConfiguration, mfaConfiguration: config.mfaConfiguration,
            webAuthnConfiguration: config.webAuthnConfiguration)
    }

    public func getUserPoolMfaConfig(_ request: GetUserPoolMfaConfigRequest) async throws -> GetUserPoolMfaConfigResponse {
        Self.mfaConfig(of: try await directory.requirePool(request.userPoolId))
    }

    static func mfaConfig(of pool: PoolRecord) -> GetUserPoolMfaConfigResponse {
        GetUserPoolMfaConfigResponse(
            smsMfaConfiguration: pool.mfa.sms ? SmsMfaConfigType(smsAuthenticationMessage: pool.mfa.smsMessage) : nil,
            softwareTokenMfaConfiguration: SoftwareTokenMfaConfigType(enabled: pool.mfa.softwareToken),
            emailMfaConfiguration: pool.mfa.email
                ? EmailMfaConfigType(message: pool.mfa.emailMessage, subject: pool.mfa.emailSubject) : nil,
            mfaConfiguration: pool.settings.mfaConfiguration ?? .off,
            webAuthnConfiguration: WebAuthnConfigurationType(
                relyingPartyId: pool.mfa.webAuthn?.relyingPartyId,
                userVerification: pool.mfa.webAuthn?.userVerification ?? .preferred,
                factorConfiguration: pool.mfa.webAuthn?.factorConfiguration ?? .singleFactor))
    }
}
