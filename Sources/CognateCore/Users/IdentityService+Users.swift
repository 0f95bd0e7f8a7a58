import CognateProtocol

extension IdentityService {
    /// GetUser: the attributes the token's app client may read (all when it lists none).
    public func getUser(_ request: GetUserRequest) async throws -> GetUserResponse {
        let caller = try await authenticatedUser(request.accessToken, onlyToAnswer: true)
        let readable = caller.client.settings.readAttributes.map { ["sub"] + $0 }
        let mfa = try await mfaSettings(of: caller.user, pool: caller.pool, onlyToAnswer: true)
        return GetUserResponse(
            username: caller.user.username, userAttributes: caller.user.wireAttributes(only: readable),
            mfaOptions: mfa.options, preferredMfaSetting: mfa.preferred, userMFASettingList: mfa.list)
    }

    public func deleteUser(_ request: DeleteUserRequest) async throws -> EmptyResponse {
        let caller = try await authenticatedUser(request.accessToken)
        try await store.write { try await $0.deleteUser(poolId: caller.pool.id, sub: caller.user.sub) }
        return EmptyResponse()
    }

    public func adminGetUser(_ request: AdminGetUserRequest) async throws -> AdminGetUserResponse {
        let pool = try await requirePool(request.userPoolId)
        let user = try await store.read { try await self.requireUser(request.username, in: pool, $0) }
        let mfa = try await mfaSettings(of: user, pool: pool)
        return AdminGetUserResponse(
            username: user.username, userAttributes: user.wireAttributes(), userCreateDate: user.createdAt,
            userLastModifiedDate: user.updatedAt, enabled: user.enabled, userStatus: user.status,
            mfaOptions: mfa.options, preferredMfaSetting: mfa.preferred, userMFASettingList: mfa.list)
    }

    public func adminDeleteUser(_ request: AdminDeleteUserRequest) async throws -> EmptyResponse {
        let pool = try await requirePool(request.userPoolId)
        try await store.write { transaction in
            let user = try await self.requireUser(request.username, in: pool, transaction)
            try await transaction.deleteUser(poolId: pool.id, sub: user.sub)
        }
        return EmptyResponse()
    }
}
