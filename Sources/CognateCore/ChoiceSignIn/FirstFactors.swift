import CognateProtocol

/// Which first factors of choice-based sign-in (USER_AUTH) a user is offered — the one place
/// this is decided, for InitiateAuth's `AvailableChallenges`, SELECT_CHALLENGE's answers and
/// GetUserAuthFactors.
///
/// The pool allows factors (`Policies.SignInPolicy.AllowedFirstAuthFactors`, by default only
/// PASSWORD); of those, a user can use a password when they have one (offered as PASSWORD and
/// PASSWORD_SRP), a code by email or SMS when their `email` or `phone_number` is verified, a
/// passkey when they registered one. Passwordless factors are not for users who must answer a
/// second factor (Cognito: MFA and passwordless sign-in do not go together) — a user with MFA
/// enabled, or anyone in a pool that requires MFA — except passkeys in a pool whose
/// WebAuthnConfiguration counts a passkey with user verification as MFA
/// (MULTI_FACTOR_WITH_USER_VERIFICATION).
enum FirstFactors {
    /// What decides a user's factors.
    struct UserFacts: Equatable {
        var hasPassword: Bool
        var verifiedEmail: Bool
        var verifiedPhone: Bool
        var passkeys: Int
        /// MFA enabled for the user (an authenticator app, SMS or email codes).
        var hasMfa: Bool
    }

    /// The factors the pool allows, in the order it lists them.
    static func allowed(in pool: PoolRecord) -> [AuthFactorType] {
        let listed = pool.settings.policies?.signInPolicy?.allowedFirstAuthFactors ?? []
        return listed.isEmpty ? [.password] : listed
    }

    /// Whether a second factor applies to the user: required by the pool, or enabled by them.
    static func mfaApplies(_ facts: UserFacts, pool: PoolRecord) -> Bool {
        facts.hasMfa || pool.settings.mfaConfiguration == .on
    }

    /// Whether the pool counts a passkey verified with the user as a second factor.
    static func passkeyCountsAsMfa(in pool: PoolRecord) -> Bool {
        pool.mfa.webAuthn?.factorConfiguration == .multiFactorWithUserVerification
    }

    /// The user's factors as challenge names, in the order the pool allows them.
    static func available(_ facts: UserFacts, pool: PoolRecord) -> [ChallengeNameType] {
        let passwordless = !mfaApplies(facts, pool: pool)
        return allowed(in: pool).flatMap { factor -> [ChallengeNameType] in
            switch factor {
            case .password: facts.hasPassword ? [.password, .passwordSrp] : []
            case .emailOtp: passwordless && facts.verifiedEmail ? [.emailOtp] : []
            case .smsOtp: passwordless && facts.verifiedPhone ? [.smsOtp] : []
            case .webAuthn: facts.passkeys > 0 && (passwordless || passkeyCountsAsMfa(in: pool)) ? [.webAuthn] : []
            default: []
            }
        }
    }

    /// What a name that is no user is offered (PreventUserExistenceErrors): every factor the
    /// pool allows, as a user who could use them all.
    static func decoy(pool: PoolRecord) -> [ChallengeNameType] {
        available(UserFacts(hasPassword: true, verifiedEmail: true, verifiedPhone: true, passkeys: 1, hasMfa: false), pool: pool)
    }

    /// Whether a passkey sign-in must carry user verification: the pool requires it, or the
    /// passkey stands in for the second factor the user must answer.
    static func passkeyNeedsUserVerification(_ facts: UserFacts, pool: PoolRecord) -> Bool {
        pool.mfa.webAuthn?.userVerification == .required || mfaApplies(facts, pool: pool)
    }

    /// The factors GetUserAuthFactors reports as the user's (`ConfiguredUserAuthFactors`).
    static func configured(_ facts: UserFacts, pool: PoolRecord) -> [AuthFactorType] {
        available(facts, pool: pool).compactMap { name -> AuthFactorType? in
            switch name {
            case .password: .password
            case .emailOtp: .emailOtp
            case .smsOtp: .smsOtp
            case .webAuthn: .webAuthn
            default: nil
            }
        }
    }
}

extension FirstFactors.UserFacts {
    init(_ user: UserRecord, mfa: UserMfaRecord?, passkeys: Int) {
        self.init(
            hasPassword: user.password != nil, verifiedEmail: user.isVerified("email"),
            verifiedPhone: user.isVerified("phone_number"), passkeys: passkeys,
            hasMfa: mfa.map { $0.totpEnabled || $0.smsEnabled || $0.emailEnabled } ?? false)
    }
}

extension UserRecord {
    /// Whether the user has `attribute` and it is verified (`<attribute>_verified` is true).
    func isVerified(_ attribute: String) -> Bool {
        guard let value = attributes[attribute], !value.isEmpty else { return false }
        return attributes["\(attribute)_verified"]?.lowercased() == "true"
    }
}
