import CognateProtocol

/// Cognito's defaults and rules for app client settings, shared by create and update
/// (UpdateUserPoolClient replaces every setting it can change).
enum ClientSettings {
    static let legacyFlows: Set<ExplicitAuthFlowsType> = [.adminNoSrpAuth, .customAuthFlowOnly, .userPasswordAuth]

    /// Applies defaults and checks consistency; `settings` carries the requested values.
    /// `isCreation` chooses Cognito's wording ("while creating" / "while updating a client").
    static func normalized(_ requested: UserPoolClientType, pool: PoolRecord, isCreation: Bool) throws -> UserPoolClientType {
        var s = requested
        let flows = s.explicitAuthFlows ?? []
        if !flows.isEmpty, flows.contains(where: legacyFlows.contains), flows.contains(where: { !legacyFlows.contains($0) }) {
            throw CognitoError.invalidParameter(
                "ExplicitAuthFlows can not have both legacy and new values: use either ALLOW_ values or the legacy ones.")
        }
        // Token lifetimes: stated as Cognito shows them for a client created without them.
        if s.accessTokenValidity == nil && s.tokenValidityUnits?.accessToken == nil {
            s.accessTokenValidity = 60
            s.tokenValidityUnits = units(s.tokenValidityUnits, access: .minutes)
        }
        if s.idTokenValidity == nil && s.tokenValidityUnits?.idToken == nil {
            s.idTokenValidity = 60
            s.tokenValidityUnits = units(s.tokenValidityUnits, id: .minutes)
        }
        if s.refreshTokenValidity == nil || s.refreshTokenValidity == 0 {
            s.refreshTokenValidity = 30
            s.tokenValidityUnits = units(s.tokenValidityUnits, refresh: .days)
        }
        s.tokenValidityUnits = units(s.tokenValidityUnits, access: .hours, id: .hours, refresh: .days)
        try checkLifetimes(TokenValidity(client: s))

        s.preventUserExistenceErrors = s.preventUserExistenceErrors ?? .legacy
        s.enableTokenRevocation = s.enableTokenRevocation ?? true
        s.enablePropagateAdditionalUserContextData = s.enablePropagateAdditionalUserContextData ?? false
        s.authSessionValidity = s.authSessionValidity ?? 3
        s.allowedOAuthFlowsUserPoolClient = s.allowedOAuthFlowsUserPoolClient ?? false

        let known = Set(pool.settings.schemaAttributes?.compactMap(\.name) ?? [])
        let doing = isCreation ? "creating" : "updating"
        if (s.readAttributes ?? []).contains(where: { !known.contains($0) }) {
            throw CognitoError.invalidParameter("Invalid read attributes specified while \(doing) a client")
        }
        if (s.writeAttributes ?? []).contains(where: { !known.contains($0) }) {
            throw CognitoError.invalidParameter("Invalid write attributes specified while \(doing) a client")
        }
        if let write = s.writeAttributes, write.contains("sub") {
            throw CognitoError.invalidParameter("The sub attribute can not be writable.")
        }
        try RedirectURLs.check(callbacks: s.callbackURLs, logouts: s.logoutURLs, defaultRedirect: s.defaultRedirectURI)
        return s
    }

    /// Fills the units that are still missing.
    private static func units(_ current: TokenValidityUnitsType?, access: TimeUnitsType? = nil, id: TimeUnitsType? = nil,
                              refresh: TimeUnitsType? = nil) -> TokenValidityUnitsType {
        TokenValidityUnitsType(
            accessToken: current?.accessToken ?? access, idToken: current?.idToken ?? id,
            refreshToken: current?.refreshToken ?? refresh)
    }

    static func checkLifetimes(_ validity: TokenValidity) throws {
        let fiveMinutes: Double = 300, oneDay: Double = 86_400
        guard (fiveMinutes...oneDay).contains(validity.accessToken) else {
            throw CognitoError.invalidParameter("Access Token validity must be between 5 minutes and 1 day.")
        }
        guard (fiveMinutes...oneDay).contains(validity.idToken) else {
            throw CognitoError.invalidParameter("ID Token validity must be between 5 minutes and 1 day.")
        }
        guard (3600...(3650 * oneDay)).contains(validity.refreshToken) else {
            throw CognitoError.invalidParameter("Refresh Token validity must be between 60 minutes and 10 years.")
        }
        guard validity.accessToken <= validity.refreshToken, validity.idToken <= validity.refreshToken else {
            throw CognitoError.invalidParameter("Access and ID token validity must not exceed refresh token validity.")
        }
    }

    /// The flows the client allows, with Cognito's defaults and legacy meanings resolved.
    static func allowedFlows(_ client: UserPoolClientType) -> Set<ExplicitAuthFlowsType> {
        guard let flows = client.explicitAuthFlows, !flows.isEmpty else {
            return [.allowRefreshTokenAuth, .allowUserSrpAuth, .allowCustomAuth]
        }
        var allowed = Set(flows)
        if flows.contains(where: legacyFlows.contains) {
            // Legacy settings always permitted SRP and refresh.
            allowed.formUnion([.allowUserSrpAuth, .allowRefreshTokenAuth])
            if flows.contains(.userPasswordAuth) { allowed.insert(.allowUserPasswordAuth) }
            if flows.contains(.adminNoSrpAuth) { allowed.insert(.allowAdminUserPasswordAuth) }
            if flows.contains(.customAuthFlowOnly) { allowed = [.allowCustomAuth, .allowRefreshTokenAuth] }
        }
        return allowed
    }
}
