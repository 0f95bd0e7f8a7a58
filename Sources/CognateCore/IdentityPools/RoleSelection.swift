import CognateIdentityProtocol
import CognateProtocol
import Foundation

/// Which role GetCredentialsForIdentity asks STS for, as Cognito chooses it:
/// - a guest gets the pool's `unauthenticated` role;
/// - a signed-in identity gets what the role mapping of its login's provider picks (keyed
///   `<provider>` or, for user pools, `<provider>:<app client id>`): Token — the ID token's
///   `cognito:preferred_role`, or the CustomRoleArn asked for when it is among the token's
///   `cognito:roles`, or its only role; Rules — the first rule whose claim matches; when neither
///   decides, AmbiguousRoleResolution: the `authenticated` role, or Deny;
/// - without a mapping, the `authenticated` role (a CustomRoleArn must be that role).
/// A pool without the role it needs answers InvalidIdentityPoolConfigurationException.
enum RoleSelection {
    static func role(authenticated: Bool, logins: [VerifiedLogin], roles: IdentityPoolRoles, customRoleArn: String?) throws
        -> String
    {
        guard authenticated else {
            guard let role = roles.roles["unauthenticated"] else { throw CognitoIdentityError.invalidRoles }
            if let customRoleArn, customRoleArn != role { throw notAmongRoles(customRoleArn) }
            return role
        }
        for login in logins {
            guard let mapping = roles.roleMappings[login.roleMappingKey] ?? roles.roleMappings[login.provider] else { continue }
            if let role = try mapped(mapping, login: login, customRoleArn: customRoleArn) { return role }
            guard mapping.ambiguousRoleResolution != .deny else {
                throw CognitoIdentityError.notAuthorized(
                    "No role of the role mapping of \(login.roleMappingKey) applies, and its AmbiguousRoleResolution is Deny.")
            }
            return try defaultRole(roles, customRoleArn: customRoleArn)
        }
        return try defaultRole(roles, customRoleArn: customRoleArn)
    }

    private static func defaultRole(_ roles: IdentityPoolRoles, customRoleArn: String?) throws -> String {
        guard let role = roles.roles["authenticated"] else { throw CognitoIdentityError.invalidRoles }
        if let customRoleArn, customRoleArn != role { throw notAmongRoles(customRoleArn) }
        return role
    }

    private static func mapped(_ mapping: RoleMapping, login: VerifiedLogin, customRoleArn: String?) throws -> String? {
        if mapping.type == .token {
            let roles = values(of: "cognito:roles", in: login.claims)
            if let customRoleArn {
                guard roles.contains(customRoleArn) else { throw notAmongRoles(customRoleArn) }
                return customRoleArn
            }
            if let preferred = login.claims["cognito:preferred_role"]?.stringValue { return preferred }
            return roles.count == 1 ? roles[0] : nil
        }
        for rule in mapping.rulesConfiguration?.rules ?? [] where matches(rule, login.claims) { return rule.roleARN }
        return nil
    }

    static func matches(_ rule: MappingRule, _ claims: [String: JSONValue]) -> Bool {
        let present = values(of: rule.claim, in: claims)
        switch rule.matchType {
        case .equals: return present.contains(rule.value)
        case .contains: return present.contains { $0.contains(rule.value) }
        case .startsWith: return present.contains { $0.hasPrefix(rule.value) }
        case .notEqual: return !present.isEmpty && !present.contains(rule.value)
        default: return false
        }
    }

    /// A claim's values as strings: a list's elements, or the one value.
    static func values(of claim: String, in claims: [String: JSONValue]) -> [String] {
        switch claims[claim] {
        case .array(let values)?: values.compactMap(\.claimString)
        case let value?: value.claimString.map { [$0] } ?? []
        case nil: []
        }
    }

    private static func notAmongRoles(_ arn: String) -> CognitoIdentityError {
        .notAuthorized("The role \(arn) is not one this login may assume.")
    }
}
