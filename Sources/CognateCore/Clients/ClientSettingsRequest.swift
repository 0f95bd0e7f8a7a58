import CognateProtocol

/// The settings CreateUserPoolClient and UpdateUserPoolClient share (the model gives both the
/// same members), read once into the client's stored settings.
protocol ClientSettingsRequest {
    var refreshTokenValidity: Int? { get }
    var accessTokenValidity: Int? { get }
    var idTokenValidity: Int? { get }
    var tokenValidityUnits: TokenValidityUnitsType? { get }
    var readAttributes: [String]? { get }
    var writeAttributes: [String]? { get }
    var explicitAuthFlows: [ExplicitAuthFlowsType]? { get }
    var supportedIdentityProviders: [String]? { get }
    var callbackURLs: [String]? { get }
    var logoutURLs: [String]? { get }
    var defaultRedirectURI: String? { get }
    var allowedOAuthFlows: [OAuthFlowType]? { get }
    var allowedOAuthScopes: [String]? { get }
    var allowedOAuthFlowsUserPoolClient: Bool? { get }
    var analyticsConfiguration: AnalyticsConfigurationType? { get }
    var preventUserExistenceErrors: PreventUserExistenceErrorTypes? { get }
    var enableTokenRevocation: Bool? { get }
    var enablePropagateAdditionalUserContextData: Bool? { get }
    var authSessionValidity: Int? { get }
    var refreshTokenRotation: RefreshTokenRotationType? { get }
}

extension CreateUserPoolClientRequest: ClientSettingsRequest {}
extension UpdateUserPoolClientRequest: ClientSettingsRequest {}

extension ClientSettingsRequest {
    /// The requested settings, before defaults (`ClientSettings.normalized`).
    var requestedSettings: UserPoolClientType {
        UserPoolClientType(
            refreshTokenValidity: refreshTokenValidity, accessTokenValidity: accessTokenValidity,
            idTokenValidity: idTokenValidity, tokenValidityUnits: tokenValidityUnits, readAttributes: readAttributes,
            writeAttributes: writeAttributes, explicitAuthFlows: explicitAuthFlows,
            supportedIdentityProviders: supportedIdentityProviders, callbackURLs: callbackURLs, logoutURLs: logoutURLs,
            defaultRedirectURI: defaultRedirectURI, allowedOAuthFlows: allowedOAuthFlows,
            allowedOAuthScopes: allowedOAuthScopes, allowedOAuthFlowsUserPoolClient: allowedOAuthFlowsUserPoolClient,
            analyticsConfiguration: analyticsConfiguration, preventUserExistenceErrors: preventUserExistenceErrors,
            enableTokenRevocation: enableTokenRevocation,
            enablePropagateAdditionalUserContextData: enablePropagateAdditionalUserContextData,
            authSessionValidity: authSessionValidity, refreshTokenRotation: refreshTokenRotation)
    }
}
