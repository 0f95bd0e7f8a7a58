import CognateProtocol

extension IdentityService {
    public func getUser(_ request: GetUserRequest) async throws -> GetUserResponse {
        let (_, user) = try await authenticatedUser(request.accessToken)
        return GetUserResponse(username: user.username, userAttributes: user.wireAttributes())
    }

    public func deleteUser(_ request: DeleteUserRequest) async throws -> EmptyResponse {
        let (pool, user) = try await authenticatedUser(request.accessToken)
        try await store.write { try await $0.deleteUser(poolId: pool.id, sub: user.sub) }
        return EmptyResponse()
    }

    public func adminGetUser(_ request: AdminGetUserRequest) async throws -> AdminGetUserResponse {
        let pool = try await requirePool(request.userPoolId)
        let user = try await store.read { try await self.requireUser(request.username, in: pool, $0) }
        return AdminGetUserResponse(
            username: user.username, userAttributes: user.wireAttributes(), userCreateDate: user.createdAt,
            userLastModifiedDate: user.updatedAt, enabled: user.enabled, userStatus: user.status)
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
