import CognateProtocol

/// The mutable settings CreateUserPool and UpdateUserPool share. UpdateUserPool replaces all
/// of them: what a request omits reverts to its default, as in Cognito.
protocol PoolSettingsRequest {
    var policies: UserPoolPolicyType? { get }
    var deletionProtection: DeletionProtectionType? { get }
    var lambdaConfig: LambdaConfigType? { get }
    var autoVerifiedAttributes: [VerifiedAttributeType]? { get }
    var smsVerificationMessage: String? { get }
    var emailVerificationMessage: String? { get }
    var emailVerificationSubject: String? { get }
    var verificationMessageTemplate: VerificationMessageTemplateType? { get }
    var smsAuthenticationMessage: String? { get }
    var userAttributeUpdateSettings: UserAttributeUpdateSettingsType? { get }
    var mfaConfiguration: UserPoolMfaType? { get }
    var deviceConfiguration: DeviceConfigurationType? { get }
    var emailConfiguration: EmailConfigurationType? { get }
    var smsConfiguration: SmsConfigurationType? { get }
    var userPoolTags: [String: String]? { get }
    var adminCreateUserConfig: AdminCreateUserConfigType? { get }
    var userPoolAddOns: UserPoolAddOnsType? { get }
    var accountRecoverySetting: AccountRecoverySettingType? { get }
    var userPoolTier: UserPoolTierType? { get }
}

extension CreateUserPoolRequest: PoolSettingsRequest {}
extension UpdateUserPoolRequest: PoolSettingsRequest {}

extension PoolSettingsRequest {
    /// Checks the settings and writes them, with their defaults, into `settings`.
    func apply(to settings: inout UserPoolType) throws {
        try PoolSettings.checkAutoVerified(autoVerifiedAttributes)
        try PoolSettings.checkRecovery(accountRecoverySetting)
        try PoolSettings.checkSignInPolicy(
            policies?.signInPolicy, tier: userPoolTier ?? settings.userPoolTier ?? .essentials)
        settings.policies = PoolSettings.passwordPolicy(policies)
        settings.deletionProtection = deletionProtection ?? .inactive
        settings.lambdaConfig = lambdaConfig ?? LambdaConfigType()
        settings.autoVerifiedAttributes = autoVerifiedAttributes
        // The older top-level messages and VerificationMessageTemplate say the same thing; the
        // template wins where both are given, and both are shown, equal, as Cognito does.
        var template = PoolSettings.verificationTemplate(verificationMessageTemplate)
        template.emailMessage = template.emailMessage ?? emailVerificationMessage
        template.emailSubject = template.emailSubject ?? emailVerificationSubject
        template.smsMessage = template.smsMessage ?? smsVerificationMessage
        settings.verificationMessageTemplate = template
        settings.emailVerificationMessage = template.emailMessage
        settings.emailVerificationSubject = template.emailSubject
        settings.smsVerificationMessage = template.smsMessage
        settings.smsAuthenticationMessage = smsAuthenticationMessage
        settings.userAttributeUpdateSettings = userAttributeUpdateSettings
        settings.mfaConfiguration = mfaConfiguration ?? .off
        settings.deviceConfiguration = deviceConfiguration
        settings.emailConfiguration = emailConfiguration
        settings.smsConfiguration = smsConfiguration
        settings.userPoolTags = userPoolTags
        settings.adminCreateUserConfig = PoolSettings.adminCreateUserConfig(adminCreateUserConfig)
        settings.userPoolAddOns = userPoolAddOns
        settings.accountRecoverySetting = accountRecoverySetting
        settings.userPoolTier = userPoolTier ?? settings.userPoolTier ?? .essentials
    }
}
