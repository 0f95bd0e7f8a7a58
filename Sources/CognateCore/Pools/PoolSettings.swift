import CognateProtocol

/// Cognito's defaults and consistency rules for pool settings (shared by create and update,
/// since UpdateUserPool replaces every mutable setting).
enum PoolSettings {
    static let defaultPasswordPolicy = PasswordPolicyType(
        minimumLength: 8, requireUppercase: true, requireLowercase: true, requireNumbers: true, requireSymbols: true,
        temporaryPasswordValidityDays: 7)

    /// The policy as stored: an omitted policy is Cognito's default; members omitted from a
    /// given policy are off, except the length (8) and temporary validity (7 days).
    static func passwordPolicy(_ requested: UserPoolPolicyType?) -> UserPoolPolicyType {
        guard var policy = requested?.passwordPolicy else {
            return UserPoolPolicyType(passwordPolicy: defaultPasswordPolicy, signInPolicy: requested?.signInPolicy)
        }
        policy.minimumLength = policy.minimumLength ?? 8
        policy.requireUppercase = policy.requireUppercase ?? false
        policy.requireLowercase = policy.requireLowercase ?? false
        policy.requireNumbers = policy.requireNumbers ?? false
        policy.requireSymbols = policy.requireSymbols ?? false
        policy.temporaryPasswordValidityDays = policy.temporaryPasswordValidityDays ?? 7
        return UserPoolPolicyType(passwordPolicy: policy, signInPolicy: requested?.signInPolicy)
    }

    static func adminCreateUserConfig(_ requested: AdminCreateUserConfigType?) -> AdminCreateUserConfigType {
        var config = requested ?? AdminCreateUserConfigType()
        config.allowAdminCreateUserOnly = config.allowAdminCreateUserOnly ?? false
        config.unusedAccountValidityDays = config.unusedAccountValidityDays ?? 7
        return config
    }

    static func verificationTemplate(_ requested: VerificationMessageTemplateType?) -> VerificationMessageTemplateType {
        var template = requested ?? VerificationMessageTemplateType()
        template.defaultEmailOption = template.defaultEmailOption ?? .confirmWithCode
        return template
    }

    static func checkAutoVerified(_ attributes: [VerifiedAttributeType]?) throws {
        for attribute in attributes ?? [] where !attribute.isKnown {
            throw CognitoError.invalidParameter("Invalid AutoVerifiedAttributes: \(attribute.rawValue)")
        }
    }

    /// `Policies.SignInPolicy`: the first factors must include PASSWORD, name each factor once,
    /// and — in the LITE tier — be PASSWORD alone (passwordless sign-in is an Essentials
    /// feature, FeatureUnavailableInTierException as in Cognito).
    static func checkSignInPolicy(_ policy: SignInPolicyType?, tier: UserPoolTierType) throws {
        guard let factors = policy?.allowedFirstAuthFactors, !factors.isEmpty else { return }
        guard Set(factors).count == factors.count else {
            throw CognitoError.invalidParameter("AllowedFirstAuthFactors must not name a factor twice.")
        }
        guard factors.contains(.password) else {
            throw CognitoError.invalidParameter("AllowedFirstAuthFactors must include PASSWORD.")
        }
        if tier == .lite, factors != [.password] {
            throw CognitoError(
                .featureUnavailableInTier,
                "The following features need to be disabled for the LITE pricing tier configured: Passwordless Sign-In")
        }
    }

    static func checkRecovery(_ setting: AccountRecoverySettingType?) throws {
        guard let mechanisms = setting?.recoveryMechanisms else { return }
        let priorities = mechanisms.map(\.priority)
        guard Set(priorities).count == priorities.count else {
            throw CognitoError.invalidParameter("RecoveryMechanisms priorities must be unique.")
        }
        if mechanisms.contains(where: { $0.name == .adminOnly }) && mechanisms.count > 1 {
            throw CognitoError.invalidParameter("admin_only can not be combined with other recovery mechanisms.")
        }
    }
}
