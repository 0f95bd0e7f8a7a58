import CognateIdentityProtocol
import CognateProtocol
import Foundation

/// Developer-authenticated identities: the app's back end vouches for its users (these are
/// admin operations, signed), naming them by the pool's DeveloperProviderName and its own user
/// identifier. The app then hands the OpenID token back under `cognito-identity.amazonaws.com`.
extension FederatedIdentities {
    /// The identity of a developer user (made on first sight, or linked to the IdentityId
    /// given), with any other logins given, and its OpenID token, valid TokenDuration seconds
    /// (15 minutes by default, at most a day).
    public func getOpenIdTokenForDeveloperIdentity(_ request: GetOpenIdTokenForDeveloperIdentityInput) async throws
        -> GetOpenIdTokenForDeveloperIdentityResponse
    {
        let pool = try await lookup.pool(request.identityPoolId)
        guard let developer = pool.settings.developerProviderName else {
            throw CognitoIdentityError.invalidParameter("The identity pool has no DeveloperProviderName.")
        }
        guard let user = request.logins[developer] else {
            throw CognitoIdentityError.invalidParameter("Logins must name the developer provider \(developer).")
        }
        var others = request.logins
        others[developer] = nil
        var verified = try await logins.verify(others, pool: pool)
        verified.append(VerifiedLogin(
            provider: developer, subject: user, amr: "\(developer):\(pool.id):\(user)", claims: [:], clientId: nil))
        let identity = try await links.resolve(pool: pool, identityId: request.identityId, logins: verified)
        let token = try await openIdTokens.token(
            identityId: identity.identityId, poolId: pool.id, logins: verified,
            lifetime: TimeInterval(request.tokenDuration ?? Int(configuration.identityPools.openIdTokenLifetime)),
            principalTags: principalTags(pool, verified, extra: request.principalTags ?? [:]))
        return GetOpenIdTokenForDeveloperIdentityResponse(identityId: identity.identityId, token: token)
    }

    /// The identity of a developer user, or the developer users of an identity.
    public func lookupDeveloperIdentity(_ request: LookupDeveloperIdentityInput) async throws -> LookupDeveloperIdentityResponse {
        let pool = try await lookup.pool(request.identityPoolId)
        guard let developer = pool.settings.developerProviderName else {
            throw CognitoIdentityError.resourceNotFound("The identity pool has no DeveloperProviderName.")
        }
        var identityId = request.identityId
        if let user = request.developerUserIdentifier {
            guard let login = try await store.read({ try await $0.identityLogin(poolId: pool.id, provider: developer, subject: user) })
            else { throw CognitoIdentityError.resourceNotFound("Developer user '\(user)' not found.") }
            if let identityId, identityId != login.identityId {
                throw CognitoIdentityError.resourceConflict("The developer user is linked to another identity.")
            }
            identityId = login.identityId
        }
        guard let identityId else {
            throw CognitoIdentityError.invalidParameter("Give IdentityId or DeveloperUserIdentifier.")
        }
        guard let identity = try await store.read({ try await $0.identity(id: identityId, forUpdate: false) }),
            identity.poolId == pool.id
        else { throw CognitoIdentityError.identityNotFound(identityId) }
        let users = identity.logins.filter { $0.provider == developer }.map(\.subject)
        let start = request.nextToken.flatMap(Int.init) ?? 0
        let limit = request.maxResults ?? 60
        let page = Array(users.dropFirst(start).prefix(limit))
        let next = start + page.count < users.count ? String(start + page.count) : nil
        return LookupDeveloperIdentityResponse(identityId: identityId, developerUserIdentifierList: page, nextToken: next)
    }

    /// Links the source developer user's identity, with all its logins, to the destination's.
    public func mergeDeveloperIdentities(_ request: MergeDeveloperIdentitiesInput) async throws
        -> MergeDeveloperIdentitiesResponse
    {
        let pool = try await lookup.pool(request.identityPoolId)
        guard request.developerProviderName == pool.settings.developerProviderName else {
            throw CognitoIdentityError.resourceNotFound("Developer provider '\(request.developerProviderName)' not found.")
        }
        let identityId = try await links.mergeDeveloperUsers(
            pool: pool, provider: request.developerProviderName, source: request.sourceUserIdentifier,
            destination: request.destinationUserIdentifier)
        return MergeDeveloperIdentitiesResponse(identityId: identityId)
    }

    /// Unlinks a developer user from its identity; an identity left without logins is disabled.
    public func unlinkDeveloperIdentity(_ request: UnlinkDeveloperIdentityInput) async throws -> EmptyResponse {
        let pool = try await lookup.pool(request.identityPoolId)
        guard request.developerProviderName == pool.settings.developerProviderName else {
            throw CognitoIdentityError.resourceNotFound("Developer provider '\(request.developerProviderName)' not found.")
        }
        try await store.write { transaction in
            let identity = try await links.lockedIdentity(request.identityId, pool: pool, in: transaction)
            guard identity.logins.contains(where: {
                $0.provider == request.developerProviderName && $0.subject == request.developerUserIdentifier
            }) else { throw CognitoIdentityError.resourceNotFound("Developer user '\(request.developerUserIdentifier)' not found.") }
            try await transaction.deleteIdentityLogins(
                identityId: identity.identityId, provider: request.developerProviderName, subject: request.developerUserIdentifier)
            try await transaction.updateIdentity(id: identity.identityId, at: time.now, disabled: identity.logins.count == 1)
        }
        return EmptyResponse()
    }
}
