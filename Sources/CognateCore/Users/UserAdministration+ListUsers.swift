import CognateProtocol

extension UserAdministration {
    public func listUsers(_ request: ListUsersRequest) async throws -> ListUsersResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let filter = try UserFilterParser.parse(request.filter, names: SignInNames(pool: pool.settings))
        let after = try PageToken.decode(request.paginationToken)
        if let names = request.attributesToGet {
            let known = Set(pool.settings.schemaAttributes?.compactMap(\.name) ?? [])
            for name in names where !known.contains(name) {
                throw CognitoError.invalidParameter("One or more requested attributes do not exist.")
            }
        }
        let limit = request.limit.flatMap { $0 == 0 ? nil : $0 } ?? 60
        let page = try await store.read {
            try await $0.listUsers(poolId: pool.id, filter: filter, after: after, limit: limit)
        }
        return ListUsersResponse(
            users: page.items.map { $0.wireUser(attributesToGet: request.attributesToGet) },
            paginationToken: PageToken.encode(page.next))
    }
}
