import CognateProtocol
import Foundation

/// A user's second factors: preferences, authenticator apps (SoftwareToken), the factors they can
/// use.
public struct MfaSettings: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let codes: CodeBook
    let directory: PoolDirectory
    let users: UserDirectory
    let authSessions: AuthSessionBook
    let authenticator: AccessTokenAuthenticator
    let mfaView: UserMfaView
}

extension MfaSettings {
    /// SetUserMFAPreference: turns each of the user's factors on or off for sign-in, and which
    /// one is preferred.
    public func setUserMFAPreference(_ request: SetUserMFAPreferenceRequest) async throws -> SetUserMFAPreferenceResponse {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        try await setMfaPreference(
            MfaPreferenceChange(
                softwareToken: request.softwareTokenMfaSettings.map { ($0.enabled, $0.preferredMfa) },
                sms: request.smsMfaSettings.map { ($0.enabled, $0.preferredMfa) },
                email: request.emailMfaSettings.map { ($0.enabled, $0.preferredMfa) }),
            user: caller.user, pool: caller.pool)
        return SetUserMFAPreferenceResponse()
    }

    public func adminSetUserMFAPreference(_ request: AdminSetUserMFAPreferenceRequest) async throws
        -> AdminSetUserMFAPreferenceResponse
    {
        let pool = try await directory.requirePool(request.userPoolId)
        let user = try await store.read { try await users.requireUser(request.username, in: pool, $0) }
        try await setMfaPreference(
            MfaPreferenceChange(
                softwareToken: request.softwareTokenMfaSettings.map { ($0.enabled, $0.preferredMfa) },
                sms: request.smsMfaSettings.map { ($0.enabled, $0.preferredMfa) },
                email: request.emailMfaSettings.map { ($0.enabled, $0.preferredMfa) }),
            user: user, pool: pool)
        return AdminSetUserMFAPreferenceResponse()
    }

    /// SetUserSettings (Cognito's older way to turn SMS MFA on): `MFAOptions` with an SMS
    /// option for `phone_number` enables SMS_MFA, an empty list disables it.
    public func setUserSettings(_ request: SetUserSettingsRequest) async throws -> SetUserSettingsResponse {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        try await applyMfaOptions(request.mfaOptions, user: caller.user, pool: caller.pool)
        return SetUserSettingsResponse()
    }

    public func adminSetUserSettings(_ request: AdminSetUserSettingsRequest) async throws -> AdminSetUserSettingsResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let user = try await store.read { try await users.requireUser(request.username, in: pool, $0) }
        try await applyMfaOptions(request.mfaOptions, user: user, pool: pool)
        return AdminSetUserSettingsResponse()
    }

    private func applyMfaOptions(_ options: [MFAOptionType], user: UserRecord, pool: PoolRecord) async throws {
        for option in options where option.deliveryMedium != .sms || (option.attributeName ?? "phone_number") != "phone_number" {
            throw CognitoError.invalidParameter("Only SMS delivery to phone_number is supported in MFAOptions.")
        }
        try await setMfaPreference(MfaPreferenceChange(sms: (!options.isEmpty, nil)), user: user, pool: pool)
    }

    /// What a preference call asks for each factor: (Enabled, PreferredMfa); nil leaves it be.
    struct MfaPreferenceChange {
        var softwareToken: (enabled: Bool?, preferred: Bool?)?
        var sms: (enabled: Bool?, preferred: Bool?)?
        var email: (enabled: Bool?, preferred: Bool?)?
    }

    /// One rule set for every way a user's MFA preferences change. A factor can be enabled or
    /// preferred only when the user has what it needs (a verified authenticator app, a phone
    /// number, an email address) and — for SMS and email — the pool enables it; at most one
    /// factor is preferred, and turning a factor off drops its preference.
    private func setMfaPreference(_ change: MfaPreferenceChange, user: UserRecord, pool: PoolRecord) async throws {
        let now = time.now
        try await store.write { transaction in
            try await self.updateMfa(of: user, pool: pool, now: now, in: transaction) { record in
                let factors: [(ChallengeNameType, (enabled: Bool?, preferred: Bool?)?, WritableKeyPath<UserMfaRecord, Bool>)] = [
                    (.softwareTokenMfa, change.softwareToken, \.totpEnabled),
                    (.smsMfa, change.sms, \.smsEnabled),
                    (.emailOtp, change.email, \.emailEnabled),
                ]
                for (factor, requested, enabled) in factors {
                    guard let requested else { continue }
                    if requested.enabled == true || requested.preferred == true {
                        try Self.requireMfaFactorUsable(factor, record: record, user: user, pool: pool)
                    }
                    if let on = requested.enabled { record[keyPath: enabled] = on }
                    if requested.preferred == true, record[keyPath: enabled] {
                        record.preferred = factor.rawValue
                    } else if record.preferred == factor.rawValue, requested.preferred == false || !record[keyPath: enabled] {
                        record.preferred = nil
                    }
                }
            }
        }
    }

    private static func requireMfaFactorUsable(_ factor: ChallengeNameType, record: UserMfaRecord, user: UserRecord,
                                               pool: PoolRecord) throws {
        switch factor {
        case .softwareTokenMfa:
            guard record.totpSecret != nil else { throw CognitoError.invalidParameter("User has not verified software token mfa") }
        case .smsMfa:
            guard user.destination(for: "phone_number") != nil else {
                throw CognitoError.invalidParameter("User does not have delivery config set to turn on SMS_MFA")
            }
            guard pool.mfa.sms else { throw CognitoError.invalidParameter("SMS MFA is not enabled for the user pool.") }
        default:
            guard user.destination(for: "email") != nil else {
                throw CognitoError.invalidParameter("User does not have delivery config set to turn on EMAIL_OTP")
            }
            guard pool.mfa.email else { throw CognitoError.invalidParameter("Email MFA is not enabled for the user pool.") }
        }
    }

    /// GetUserAuthFactors: the first factors the signed-in user can sign in with through
    /// USER_AUTH (``FirstFactors/configured(_:pool:)``) and the MFA settings GetUser shows.
    public func getUserAuthFactors(_ request: GetUserAuthFactorsRequest) async throws -> GetUserAuthFactorsResponse {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        let factors = try await authFactors(of: caller.user, pool: caller.pool)
        return GetUserAuthFactorsResponse(
            username: caller.user.username, preferredMfaSetting: factors.preferred, userMFASettingList: factors.list,
            configuredUserAuthFactors: factors.configured)
    }

    /// AdminGetUserAuthFactors: GetUserAuthFactors for a user an administrator names.
    public func adminGetUserAuthFactors(_ request: AdminGetUserAuthFactorsRequest) async throws
        -> AdminGetUserAuthFactorsResponse
    {
        let pool = try await directory.requirePool(request.userPoolId)
        let user = try await store.read { try await users.requireUser(request.username, in: pool, $0) }
        let factors = try await authFactors(of: user, pool: pool)
        return AdminGetUserAuthFactorsResponse(
            username: user.username, preferredMfaSetting: factors.preferred, userMFASettingList: factors.list,
            configuredUserAuthFactors: factors.configured)
    }

    /// The user's MFA settings as GetUser shows them, and the first factors USER_AUTH offers.
    private func authFactors(of user: UserRecord, pool: PoolRecord) async throws
        -> (preferred: String?, list: [String]?, configured: [AuthFactorType])
    {
        let mfa = try await mfaView.mfaSettings(of: user, pool: pool)
        let (record, passkeys) = try await store.read { transaction in
            (try await transaction.userMfa(poolId: pool.id, sub: user.sub),
             try await transaction.passkeyCount(poolId: pool.id, userSub: user.sub))
        }
        let facts = FirstFactors.UserFacts(user, mfa: record, passkeys: passkeys)
        return (mfa.preferred, mfa.list, FirstFactors.configured(facts, pool: pool))
    }

    /// AdminDeleteSoftwareToken: the user's authenticator app is forgotten (a lost phone): its
    /// secret, pending or verified, and its preference; the user may set up a new one with
    /// AssociateSoftwareToken.
    public func adminDeleteSoftwareToken(_ request: AdminDeleteSoftwareTokenRequest) async throws
        -> AdminDeleteSoftwareTokenResponse
    {
        let pool = try await directory.requirePool(request.userPoolId)
        let now = time.now
        try await store.write { transaction in
            let user = try await users.requireUser(request.username, in: pool, transaction)
            guard var record = try await transaction.userMfa(poolId: pool.id, sub: user.sub) else { return }
            record.totpSecret = nil
            record.pendingTotpSecret = nil
            record.totpName = nil
            record.totpEnabled = false
            record.lastTotpStep = nil
            if record.preferred == ChallengeNameType.softwareTokenMfa.rawValue { record.preferred = nil }
            record.updatedAt = now
            try await transaction.saveUserMfa(record)
        }
        return AdminDeleteSoftwareTokenResponse()
    }

}
