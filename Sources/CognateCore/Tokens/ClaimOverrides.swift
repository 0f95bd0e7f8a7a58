import CognateProtocol

/// What a PreTokenGeneration function changes in the tokens about to be signed (V1: the ID
/// token and groups; V2/V3: both tokens, groups and the access token's scopes).
///
/// Contract: claims that identify the token — who issued it, to whom, when, which session —
/// are never changed, whatever the function answers (`protectedClaims`); groups and roles
/// change only through the group override.
struct ClaimOverrides: Sendable, Equatable {
    var idClaims: [String: JSONValue] = [:]
    var idSuppressed: [String] = []
    var accessClaims: [String: JSONValue] = [:]
    var accessSuppressed: [String] = []
    var scopesToAdd: [String] = []
    var scopesToSuppress: [String] = []
    /// `cognito:groups` in both tokens (empty: none).
    var groups: [String]?
    /// `cognito:roles` in the ID token.
    var roles: [String]?
    /// `cognito:preferred_role` in the ID token.
    var preferredRole: String?

    static let protectedClaims: Set<String> = [
        "acr", "amr", "at_hash", "aud", "auth_time", "azp", "client_id", "cognito:groups", "cognito:preferred_role",
        "cognito:roles", "cognito:username", "event_id", "exp", "iat", "identities", "iss", "jti", "nbf", "nonce",
        "origin_jti", "scope", "sub", "token_use", "username",
    ]

    /// Reads a function's `response`; `version2` for the V2/V3 shape. Output of the wrong shape
    /// is InvalidLambdaResponseException, as in Cognito.
    init(response: [String: JSONValue], version2: Bool) throws {
        if version2 {
            guard let details = try Self.object(response["claimsAndScopeOverrideDetails"]) else { return }
            if let id = try Self.object(details["idTokenGeneration"]) {
                idClaims = try Self.object(id["claimsToAddOrOverride"]) ?? [:]
                idSuppressed = try Self.strings(id["claimsToSuppress"]) ?? []
            }
            if let access = try Self.object(details["accessTokenGeneration"]) {
                accessClaims = try Self.object(access["claimsToAddOrOverride"]) ?? [:]
                accessSuppressed = try Self.strings(access["claimsToSuppress"]) ?? []
                scopesToAdd = try Self.strings(access["scopesToAdd"]) ?? []
                scopesToSuppress = try Self.strings(access["scopesToSuppress"]) ?? []
            }
            try readGroups(details["groupOverrideDetails"])
        } else {
            guard let details = try Self.object(response["claimsOverrideDetails"]) else { return }
            idClaims = try Self.object(details["claimsToAddOrOverride"]) ?? [:]
            idSuppressed = try Self.strings(details["claimsToSuppress"]) ?? []
            try readGroups(details["groupOverrideDetails"])
        }
    }

    private mutating func readGroups(_ value: JSONValue?) throws {
        guard let group = try Self.object(value) else { return }
        groups = try Self.strings(group["groupsToOverride"])
        roles = try Self.strings(group["iamRolesToOverride"])
        switch group["preferredRole"] {
        case nil, .null?: break
        case .string(let role)?: preferredRole = role
        default: throw Triggers.unrecognizable
        }
    }

    /// Applies the overrides to the claims of an ID token.
    func applyToIDToken(_ claims: inout [String: JSONValue]) {
        applyGroups(&claims)
        if let roles { claims["cognito:roles"] = roles.isEmpty ? nil : .array(roles.map(JSONValue.string)) }
        if let preferredRole { claims["cognito:preferred_role"] = .string(preferredRole) }
        Self.apply(idClaims, idSuppressed, to: &claims)
    }

    /// Applies the overrides to the claims of an access token, scopes included.
    func applyToAccessToken(_ claims: inout [String: JSONValue]) {
        applyGroups(&claims)
        Self.apply(accessClaims, accessSuppressed, to: &claims)
        guard !scopesToAdd.isEmpty || !scopesToSuppress.isEmpty, case .string(let scope)? = claims["scope"] else { return }
        var scopes = scope.split(separator: " ").map(String.init).filter { !scopesToSuppress.contains($0) }
        for added in scopesToAdd where !scopes.contains(added) && !scopesToSuppress.contains(added) { scopes.append(added) }
        claims["scope"] = .string(scopes.joined(separator: " "))
    }

    private func applyGroups(_ claims: inout [String: JSONValue]) {
        guard let groups else { return }
        claims["cognito:groups"] = groups.isEmpty ? nil : .array(groups.map(JSONValue.string))
    }

    private static func apply(_ added: [String: JSONValue], _ suppressed: [String], to claims: inout [String: JSONValue]) {
        for (name, value) in added where !protectedClaims.contains(name) { claims[name] = value }
        for name in suppressed where !protectedClaims.contains(name) { claims[name] = nil }
    }

    private static func object(_ value: JSONValue?) throws -> [String: JSONValue]? {
        switch value {
        case nil, .null?: return nil
        case .object(let object)?: return object
        default: throw Triggers.unrecognizable
        }
    }

    private static func strings(_ value: JSONValue?) throws -> [String]? {
        switch value {
        case nil, .null?: return nil
        case .array(let items)?:
            return try items.map { item in
                guard case .string(let text) = item else { throw Triggers.unrecognizable }
                return text
            }
        default: throw Triggers.unrecognizable
        }
    }
}
