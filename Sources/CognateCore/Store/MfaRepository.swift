import Foundation

/// A pool's enabled MFA factors (SetUserPoolMfaConfig); whether MFA is off, optional or
/// required is the pool's `MfaConfiguration` setting.
public struct PoolMfaSettings: Sendable, Equatable, Codable {
    /// Authenticator apps (TOTP, SOFTWARE_TOKEN_MFA).
    public var softwareToken: Bool

    public init(softwareToken: Bool = false) {
        self.softwareToken = softwareToken
    }
}

/// A user's second factors: an authenticator app's TOTP secret (base32), set up in two steps
/// (AssociateSoftwareToken leaves it pending, VerifySoftwareToken with a right code makes it
/// the user's), whether the user has it enabled, and the last time step a code was accepted
/// for (a code is good once).
public struct UserMfaRecord: Sendable, Equatable {
    public var poolId: String
    public var userSub: String
    public var totpSecret: String?
    public var pendingTotpSecret: String?
    public var totpName: String?
    public var totpEnabled: Bool
    public var lastTotpStep: Int64?
    /// `SOFTWARE_TOKEN_MFA` when preferred.
    public var preferred: String?
    public var updatedAt: Date

    public init(poolId: String, userSub: String, totpSecret: String? = nil, pendingTotpSecret: String? = nil,
                totpName: String? = nil, totpEnabled: Bool = false, lastTotpStep: Int64? = nil, preferred: String? = nil,
                updatedAt: Date) {
        self.poolId = poolId
        self.userSub = userSub
        self.totpSecret = totpSecret
        self.pendingTotpSecret = pendingTotpSecret
        self.totpName = totpName
        self.totpEnabled = totpEnabled
        self.lastTotpStep = lastTotpStep
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
