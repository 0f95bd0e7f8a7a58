import CognateProtocol
import Foundation

extension ManagedLogin {
    /// CreateResourceServer: an API of the pool whose scopes (`<identifier>/<name>`) app
    /// clients may be allowed (AllowedOAuthScopes) and granted by the token endpoint.
    public func createResourceServer(_ request: CreateResourceServerRequest) async throws -> CreateResourceServerResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let server = ResourceServerRecord(
            poolId: pool.id, identifier: request.identifier, name: request.name,
            scopes: try Self.checkedScopes(request.scopes ?? []))
        do {
            try await store.write { try await $0.insertResourceServer(server) }
        } catch StoreError.conflict(.resourceServer) {
            throw CognitoError.invalidParameter("\(request.identifier) already exists in pool \(pool.id).")
        }
        return CreateResourceServerResponse(resourceServer: server.wire)
    }

    public func describeResourceServer(_ request: DescribeResourceServerRequest) async throws -> DescribeResourceServerResponse {
        DescribeResourceServerResponse(
            resourceServer: try await requireResourceServer(request.identifier, poolId: request.userPoolId).wire)
    }

    public func updateResourceServer(_ request: UpdateResourceServerRequest) async throws -> UpdateResourceServerResponse {
        var server = try await requireResourceServer(request.identifier, poolId: request.userPoolId)
        server.name = request.name
        server.scopes = try Self.checkedScopes(request.scopes ?? [])
        let updated = server
        try await store.write { try await $0.updateResourceServer(updated) }
        return UpdateResourceServerResponse(resourceServer: updated.wire)
    }

    public func deleteResourceServer(_ request: DeleteResourceServerRequest) async throws -> EmptyResponse {
        let server = try await requireResourceServer(request.identifier, poolId: request.userPoolId)
        try await store.write { try await $0.deleteResourceServer(poolId: server.poolId, identifier: server.identifier) }
        return EmptyResponse()
    }

    public func listResourceServers(_ request: ListResourceServersRequest) async throws -> ListResourceServersResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let after = try PageToken.decode(request.nextToken)
        let page = try await store.read {
            try await $0.resourceServers(poolId: pool.id, after: after, limit: min(max(request.maxResults ?? 50, 1), 50))
        }
        return ListResourceServersResponse(resourceServers: page.items.map(\.wire), nextToken: PageToken.encode(page.next))
    }

    private func requireResourceServer(_ identifier: String, poolId: String) async throws -> ResourceServerRecord {
        let pool = try await directory.requirePool(poolId)
        guard let server = try await store.read({ try await $0.resourceServer(poolId: pool.id, identifier: identifier) })
        else { throw CognitoError.resourceNotFound("Resource server \(identifier) does not exist.") }
        return server
    }

    /// Scopes with unique names (Cognito allows at most 100 per server).
    private static func checkedScopes(_ scopes: [ResourceServerScopeType]) throws -> [ResourceServerScopeType] {
        guard scopes.count <= 100 else { throw CognitoError.invalidParameter("A resource server has at most 100 scopes.") }
        guard Set(scopes.map(\.scopeName)).count == scopes.count else {
            throw CognitoError.invalidParameter("Scope names must be unique within a resource server.")
        }
        return scopes
    }
}

extension ResourceServerRecord {
    var wire: ResourceServerType {
        ResourceServerType(userPoolId: poolId, identifier: identifier, name: name, scopes: scopes)
    }
}
