import CognateIdentityProtocol
import CognateProtocol
import Foundation

extension IdentityPoolAdministration {
    /// Roles (`authenticated`, `unauthenticated`) and role mappings by login provider, replaced
    /// whole. A mapping of type Token or Rules needs AmbiguousRoleResolution, and Rules need
    /// their rules (Cognito: at most 25 per provider).
    public func setIdentityPoolRoles(_ request: SetIdentityPoolRolesInput) async throws -> EmptyResponse {
        let mappings = request.roleMappings ?? [:]
        for (provider, mapping) in mappings {
            guard mapping.type == .token || mapping.type == .rules else {
                throw CognitoIdentityError.invalidParameter("RoleMappings: \(provider) has an unknown Type \(mapping.type).")
            }
            guard let resolution = mapping.ambiguousRoleResolution, resolution.isKnown else {
                throw CognitoIdentityError.invalidParameter(
                    "RoleMappings: AmbiguousRoleResolution is required for \(provider) (AuthenticatedRole or Deny).")
            }
            if mapping.type == .rules {
                guard let rules = mapping.rulesConfiguration?.rules, !rules.isEmpty else {
                    throw CognitoIdentityError.invalidParameter("RoleMappings: the Rules mapping of \(provider) needs RulesConfiguration.")
                }
                guard rules.count <= 25 else {
                    throw CognitoIdentityError.invalidParameter("RoleMappings: at most 25 rules per identity provider.")
                }
            }
        }
        let id = request.identityPoolId
        try await store.write { transaction in
            guard var pool = try await transaction.identityPool(id: id) else { throw CognitoIdentityError.identityPoolNotFound(id) }
            pool.roles = IdentityPoolRoles(roles: request.roles, roleMappings: mappings)
            pool.updatedAt = time.now
            try await transaction.updateIdentityPool(pool)
        }
        return EmptyResponse()
    }

    public func getIdentityPoolRoles(_ request: GetIdentityPoolRolesInput) async throws -> GetIdentityPoolRolesResponse {
        let pool = try await lookup.pool(request.identityPoolId)
        return GetIdentityPoolRolesResponse(
            identityPoolId: pool.id, roles: pool.roles.roles,
            roleMappings: pool.roles.roleMappings.isEmpty ? nil : pool.roles.roleMappings)
    }

    /// Which claims of a provider's tokens become principal tags of the session STS opens
    /// (`https://aws.amazon.com/tags` in the OpenID token).
    public func setPrincipalTagAttributeMap(_ request: SetPrincipalTagAttributeMapInput) async throws
        -> SetPrincipalTagAttributeMapResponse
    {
        let id = request.identityPoolId
        let mapping = PrincipalTagMapping(useDefaults: request.useDefaults ?? false, tags: request.principalTags ?? [:])
        try await store.write { transaction in
            guard var pool = try await transaction.identityPool(id: id) else { throw CognitoIdentityError.identityPoolNotFound(id) }
            pool.principalTags[request.identityProviderName] = mapping
            pool.updatedAt = time.now
            try await transaction.updateIdentityPool(pool)
        }
        return SetPrincipalTagAttributeMapResponse(
            identityPoolId: id, identityProviderName: request.identityProviderName, useDefaults: mapping.useDefaults,
            principalTags: mapping.tags)
    }

    public func getPrincipalTagAttributeMap(_ request: GetPrincipalTagAttributeMapInput) async throws
        -> GetPrincipalTagAttributeMapResponse
    {
        let pool = try await lookup.pool(request.identityPoolId)
        let mapping = pool.principalTags[request.identityProviderName]
        return GetPrincipalTagAttributeMapResponse(
            identityPoolId: pool.id, identityProviderName: request.identityProviderName,
            useDefaults: mapping?.useDefaults ?? true, principalTags: mapping?.tags ?? [:])
    }
}
