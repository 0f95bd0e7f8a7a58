import CognateIdentityProtocol
import CognateProtocol
import Foundation

extension FederatedIdentities {
    /// The identity of a guest (no Logins) or of the user the Logins name. `AccountId` is
    /// accepted and not checked (Cognito ignores it too).
    public func getId(_ request: GetIdInput) async throws -> GetIdResponse {
        let pool = try await lookup.pool(request.identityPoolId)
        let verified = try await logins.verify(request.logins ?? [:], pool: pool)
        let identity = try await links.resolve(pool: pool, identityId: nil, logins: verified)
        return GetIdResponse(identityId: identity.identityId)
    }

    /// The OpenID token of an identity, for the basic (classic) flow: the app exchanges it
    /// with STS itself. Logins given link to the identity as with GetId.
    public func getOpenIdToken(_ request: GetOpenIdTokenInput) async throws -> GetOpenIdTokenResponse {
        let (pool, identity, verified) = try await resolve(request.identityId, logins: request.logins ?? [:])
        let token = try await openIdTokens.token(
            identityId: identity.identityId, poolId: pool.id, logins: verified,
            lifetime: configuration.identityPools.openIdTokenLifetime, principalTags: principalTags(pool, verified))
        return GetOpenIdTokenResponse(identityId: identity.identityId, token: token)
    }

    /// The enhanced flow: the identity's OpenID token exchanged at the configured STS for the
    /// role the pool's roles and role mappings pick (``RoleSelection``).
    public func getCredentialsForIdentity(_ request: GetCredentialsForIdentityInput) async throws
        -> GetCredentialsForIdentityResponse
    {
        let (pool, identity, verified) = try await resolve(request.identityId, logins: request.logins ?? [:])
        let role = try RoleSelection.role(
            authenticated: identity.isAuthenticated, logins: verified, roles: pool.roles, customRoleArn: request.customRoleArn)
        guard sts.endpoint != nil else { throw STSCredentials.notConfigured }
        let token = try await openIdTokens.token(
            identityId: identity.identityId, poolId: pool.id, logins: verified,
            lifetime: configuration.identityPools.openIdTokenLifetime, principalTags: principalTags(pool, verified))
        let credentials = try await sts.assumeRole(role, webIdentityToken: token)
        return GetCredentialsForIdentityResponse(identityId: identity.identityId, credentials: credentials)
    }

    /// The pool of an identity id, the identity the Logins lead to, and the verified logins.
    private func resolve(_ identityId: String, logins given: [String: String]) async throws
        -> (IdentityPoolRecord, IdentityRecord, [VerifiedLogin])
    {
        guard let known = try await store.read({ try await $0.identity(id: identityId, forUpdate: false) }) else {
            throw CognitoIdentityError.identityNotFound(identityId)
        }
        let pool = try await lookup.pool(known.poolId)
        let verified = try await logins.verify(given, pool: pool)
        let identity = try await links.resolve(pool: pool, identityId: identityId, logins: verified)
        return (pool, identity, verified)
    }

    /// Principal tags of the session: for each login whose provider has a mapping
    /// (SetPrincipalTagAttributeMap), the claims it names; with UseDefaults, a user pool's
    /// `username` (its `cognito:username`) and `client` (its `aud`) as Cognito's defaults.
    func principalTags(_ pool: IdentityPoolRecord, _ logins: [VerifiedLogin], extra: [String: String] = [:]) -> [String: String] {
        var tags = extra
        for login in logins {
            guard let mapping = pool.principalTags[login.provider] else { continue }
            var names = mapping.tags
            if mapping.useDefaults && names.isEmpty {
                names = login.clientId != nil ? ["username": "cognito:username", "client": "aud"] : ["username": "sub", "client": "aud"]
            }
            for (tag, claim) in names {
                if let value = RoleSelection.values(of: claim, in: login.claims).first { tags[tag] = value }
            }
        }
        return tags
    }
}
