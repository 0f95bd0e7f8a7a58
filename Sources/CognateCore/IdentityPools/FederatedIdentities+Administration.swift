import CognateIdentityProtocol
import CognateProtocol
import Foundation

extension FederatedIdentities {
    public func describeIdentity(_ request: DescribeIdentityInput) async throws -> IdentityDescription {
        guard let identity = try await store.read({ try await $0.identity(id: request.identityId, forUpdate: false) }) else {
            throw CognitoIdentityError.identityNotFound(request.identityId)
        }
        return Self.description(identity)
    }

    public func listIdentities(_ request: ListIdentitiesInput) async throws -> ListIdentitiesResponse {
        let pool = try await lookup.pool(request.identityPoolId)
        let page = try await store.read {
            try await $0.identities(
                poolId: pool.id, after: request.nextToken, limit: request.maxResults, hidingDisabled: request.hideDisabled ?? false)
        }
        return ListIdentitiesResponse(identityPoolId: pool.id, identities: page.items.map(Self.description), nextToken: page.next)
    }

    /// Deletes identities with their logins; ids of no identity are passed over, as deleted.
    public func deleteIdentities(_ request: DeleteIdentitiesInput) async throws -> DeleteIdentitiesResponse {
        let ids = request.identityIdsToDelete
        try await store.write { transaction in
            for id in ids { try await transaction.deleteIdentity(id: id) }
        }
        return DeleteIdentitiesResponse(unprocessedIdentityIds: [])
    }

    /// Unlinks logins of providers from an identity, proven by the Logins given (each must be
    /// linked to it). Removing its last login leaves the identity disabled: nobody reaches it
    /// any more (Cognito: "inaccessible"); the unlinked users get new identities next time.
    public func unlinkIdentity(_ request: UnlinkIdentityInput) async throws -> EmptyResponse {
        guard let identity = try await store.read({ try await $0.identity(id: request.identityId, forUpdate: false) }) else {
            throw CognitoIdentityError.identityNotFound(request.identityId)
        }
        let pool = try await lookup.pool(identity.poolId)
        let verified = try await logins.verify(request.logins, pool: pool)
        try await store.write { transaction in
            let locked = try await links.lockedIdentity(request.identityId, pool: pool, in: transaction)
            for login in verified {
                let proven = login.provider == developerTokenLoginName
                    ? login.subject == locked.identityId
                    : locked.logins.contains { $0.provider == login.provider && $0.subject == login.subject }
                guard proven else { throw CognitoIdentityError.loginsDoNotMatch }
            }
            for provider in request.loginsToRemove {
                try await transaction.deleteIdentityLogins(identityId: locked.identityId, provider: provider, subject: nil)
            }
            let left = locked.logins.filter { !request.loginsToRemove.contains($0.provider) }
            try await transaction.updateIdentity(id: locked.identityId, at: time.now, disabled: left.isEmpty)
        }
        return EmptyResponse()
    }

    static func description(_ identity: IdentityRecord) -> IdentityDescription {
        var providers: [String] = []
        for login in identity.logins where !providers.contains(login.provider) { providers.append(login.provider) }
        return IdentityDescription(
            identityId: identity.identityId, logins: providers, creationDate: identity.createdAt,
            lastModifiedDate: identity.updatedAt)
    }
}
