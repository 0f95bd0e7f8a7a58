import Foundation

/// Deployment settings the use cases need.
public struct CoreConfiguration: Sendable {
    /// Region part of pool ids and ARNs (`us-east-1_AbC…`).
    public var region: String
    /// Account id in ARNs.
    public var accountId: String
    /// Base URL clients reach this server at; tokens are issued by `<publicBaseURL>/<poolId>`.
    public var publicBaseURL: String
    /// How long a node may serve a pool or client configuration changed on another node.
    public var configurationCacheTTL: TimeInterval
    /// Lifetime of sign-up confirmation and attribute verification codes (Cognito: 24 h).
    public var confirmationCodeLifetime: TimeInterval
    /// Lifetime of password reset codes (Cognito: 1 h).
    public var passwordResetCodeLifetime: TimeInterval
    /// Code requests (ResendConfirmationCode …) allowed per user per hour (Cognito: 5).
    public var codeRequestsPerHour: Int
    /// ChangePassword calls allowed per user per hour (Cognito: 5).
    public var passwordChangesPerHour: Int
    /// Limits per caller and per destination (see `RateLimitSettings`).
    public var rateLimits: RateLimitSettings
    /// The operator's breached passwords (CompromisedCredentialsRiskConfiguration).
    public var breachedPasswords: BreachedPasswords = .empty
    /// Directory of the files SetLogDeliveryConfiguration's destinations map to; nil: none.
    public var logDeliveryDirectory: String?
    /// The identity-pool service's STS endpoint and login providers.
    public var identityPools = IdentityPoolSettings()

    public init(
        region: String = "us-east-1", accountId: String = "000000000000",
        publicBaseURL: String = "http://127.0.0.1:9229", configurationCacheTTL: TimeInterval = 5,
        confirmationCodeLifetime: TimeInterval = 86_400, passwordResetCodeLifetime: TimeInterval = 3600,
        codeRequestsPerHour: Int = 5, passwordChangesPerHour: Int = 5, rateLimits: RateLimitSettings = RateLimitSettings()
    ) {
        self.region = region
        self.accountId = accountId
        self.publicBaseURL = publicBaseURL.hasSuffix("/") ? String(publicBaseURL.dropLast()) : publicBaseURL
        self.configurationCacheTTL = configurationCacheTTL
        self.confirmationCodeLifetime = confirmationCodeLifetime
        self.passwordResetCodeLifetime = passwordResetCodeLifetime
        self.codeRequestsPerHour = codeRequestsPerHour
        self.passwordChangesPerHour = passwordChangesPerHour
        self.rateLimits = rateLimits
    }
}
