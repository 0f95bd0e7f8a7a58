import CognateProtocol
import Foundation

extension Federation {
    /// AdminLinkProviderForUser: from now on the provider's user (SourceUser: provider name,
    /// `Cognito_Subject`, the provider's `sub`) signs in as the pool's existing user
    /// (DestinationUser: `Cognito`, the username), which gains the identity in `identities`.
    /// A provider user that already signed in (it has its own federated user) cannot be merged.
    public func adminLinkProviderForUser(_ request: AdminLinkProviderForUserRequest) async throws
        -> AdminLinkProviderForUserResponse
    {
        let pool = try await directory.requirePool(request.userPoolId)
        guard let providerName = request.sourceUser.providerName, let subject = request.sourceUser.providerAttributeValue,
            request.sourceUser.providerAttributeName == "Cognito_Subject"
        else { throw CognitoError.invalidParameter("SourceUser needs ProviderName, ProviderAttributeName Cognito_Subject and a value.") }
        guard request.destinationUser.providerName == "Cognito", let username = request.destinationUser.providerAttributeValue
        else { throw CognitoError.invalidParameter("DestinationUser must be a Cognito user (ProviderName Cognito).") }
        let provider = try await requireIdentityProvider(providerName, poolId: pool.id)
        let now = time.now
        try await store.write { transaction in
            guard var user = try await users.findUser(username, in: pool, transaction) else { throw CognitoError.userNotFound }
            guard user.status != .externalProvider else {
                throw CognitoError.invalidParameter("The destination user must be a native user, not a federated one.")
            }
            do {
                try await transaction.insertProviderLink(ProviderLinkRecord(
                    poolId: pool.id, providerName: provider.name, providerUserId: subject, userSub: user.sub, createdAt: now))
            } catch StoreError.conflict(.providerLink) {
                throw CognitoError.invalidParameter(
                    "Merging is not currently supported, provide a SourceUser that has not been used to sign into the user pool.")
            }
            var identities = ProviderIdentity.decode(user.attributes["identities"])
            identities.append(ProviderIdentity(
                userId: subject, providerName: provider.name, providerType: provider.type.rawValue, primary: "false",
                dateCreated: String(Int(now.timeIntervalSince1970 * 1000))))
            user.attributes["identities"] = ProviderIdentity.encode(identities)
            user.updatedAt = now
            try await transaction.updateUser(user)
        }
        return AdminLinkProviderForUserResponse()
    }

    /// AdminDisableProviderForUser: the provider's user can no longer sign in as the pool user
    /// it was linked to (the link and the identity go); a federated user of that provider is
    /// disabled, and its sessions end.
    public func adminDisableProviderForUser(_ request: AdminDisableProviderForUserRequest) async throws
        -> AdminDisableProviderForUserResponse
    {
        let pool = try await directory.requirePool(request.userPoolId)
        guard let providerName = request.user.providerName, let subject = request.user.providerAttributeValue else {
            throw CognitoError.invalidParameter("User needs ProviderName and ProviderAttributeValue.")
        }
        let now = time.now
        try await store.write { transaction in
            guard let link = try await transaction.providerLink(poolId: pool.id, providerName: providerName, providerUserId: subject),
                var user = try await transaction.user(poolId: pool.id, sub: link.userSub, forUpdate: true)
            else { throw CognitoError.userNotFound }
            if user.status == .externalProvider {
                user.enabled = false
                try await tokenFamilies.endEverySession(of: user.sub, pool: pool, at: now, in: transaction)
            } else {
                try await transaction.deleteProviderLink(poolId: pool.id, providerName: providerName, providerUserId: subject)
                let kept = ProviderIdentity.decode(user.attributes["identities"])
                    .filter { !($0.providerName == providerName && $0.userId == subject) }
                user.attributes["identities"] = kept.isEmpty ? nil : ProviderIdentity.encode(kept)
            }
            user.updatedAt = now
            try await transaction.updateUser(user)
        }
        return AdminDisableProviderForUserResponse()
    }
}
