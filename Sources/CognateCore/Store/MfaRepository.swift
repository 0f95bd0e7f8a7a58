import CognateProtocol
import Foundation

/// A pool's enabled MFA factors and their messages (SetUserPoolMfaConfig); whether MFA is
/// off, optional or required is the pool's `MfaConfiguration` setting.
public struct PoolMfaSettings: Sendable, Equatable, Codable {
    /// Authenticator apps (TOTP, SOFTWARE_TOKEN_MFA).
    public var softwareToken: Bool
    /// Codes by text message (SMS_MFA), with the pool's `SmsAuthenticationMessage` if it set one.
    public var sms: Bool
    public var smsMessage: String?
    /// Codes by email (EMAIL_OTP), with the pool's message and subject if it set them.
    public var email: Bool
    public var emailMessage: String?
    public var emailSubject: String?
    /// Passkeys (SetUserPoolMfaConfig's `WebAuthnConfiguration`): the relying party ID, user
    /// verification and factor configuration the pool set, each nil for Cognito's default.
    public var webAuthn: WebAuthnConfigurationType?

    public init(softwareToken: Bool = false, sms: Bool = false, smsMessage: String? = nil, email: Bool = false,
                emailMessage: String? = nil, emailSubject: String? = nil, webAuthn: WebAuthnConfigurationType? = nil) {
        self.softwareToken = softwareToken
        self.sms = sms
        self.smsMessage = smsMessage
        self.email = email
        self.emailMessage = emailMessage
        self.emailSubject = emailSubject
        self.webAuthn = webAuthn
    }

    /// Stored settings from before a member existed read as that factor being off.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        softwareToken = try container.decodeIfPresent(Bool.self, forKey: .softwareToken) ?? false
        sms = try container.decodeIfPresent(Bool.self, forKey: .sms) ?? false
        smsMessage = try container.decodeIfPresent(String.self, forKey: .smsMessage)
        email = try container.decodeIfPresent(Bool.self, forKey: .email) ?? false
        emailMessage = try container.decodeIfPresent(String.self, forKey: .emailMessage)
        emailSubject = try container.decodeIfPresent(String.self, forKey: .emailSubject)
        webAuthn = try container.decodeIfPresent(WebAuthnConfigurationType.self, forKey: .webAuthn)
    }

    /// Whether any factor is enabled.
    public var anyFactor: Bool { softwareToken || sms || email }
}

/// A user's second factors: an authenticator app's TOTP secret (base32), set up in two steps
/// (AssociateSoftwareToken leaves it pending, VerifySoftwareToken with a right code makes it
/// the user's), whether the user has it enabled, and the last time step a code was accepted
/// for (a code is good once); whether codes by SMS or email are enabled (they go to the user's
/// `phone_number` and `email`), and which factor is preferred.
public struct UserMfaRecord: Sendable, Equatable {
    public var poolId: String
    public var userSub: String
    public var totpSecret: String?
    public var pendingTotpSecret: String?
    public var totpName: String?
    public var totpEnabled: Bool
    public var lastTotpStep: Int64?
    public var smsEnabled: Bool
    public var emailEnabled: Bool
    /// The preferred factor's challenge name (`SOFTWARE_TOKEN_MFA`, `SMS_MFA`, `EMAIL_OTP`).
    public var preferred: String?
    public var updatedAt: Date

    public init(poolId: String, userSub: String, totpSecret: String? = nil, pendingTotpSecret: String? = nil,
                totpName: String? = nil, totpEnabled: Bool = false, lastTotpStep: Int64? = nil, smsEnabled: Bool = false,
                emailEnabled: Bool = false, preferred: String? = nil, updatedAt: Date) {
        self.poolId = poolId
        self.userSub = userSub
        self.totpSecret = totpSecret
        self.pendingTotpSecret = pendingTotpSecret
        self.totpName = totpName
        self.totpEnabled = totpEnabled
        self.lastTotpStep = lastTotpStep
        self.smsEnabled = smsEnabled
        self.emailEnabled = emailEnabled
        self.preferred = preferred
        self.updatedAt = updatedAt
    }
}

public protocol MfaRepository: Sendable {
    func userMfa(poolId: String, sub: String) async throws -> UserMfaRecord?
    /// Inserts or replaces the user's record.
    func saveUserMfa(_ record: UserMfaRecord) async throws
    /// Records that a TOTP code of `step` was used; false when that step or a later one already
    /// was (a replay), atomically, so of two concurrent uses of one code only one succeeds.
    func useTotpStep(poolId: String, sub: String, step: Int64) async throws -> Bool
}
