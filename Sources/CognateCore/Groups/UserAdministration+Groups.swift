import CognateProtocol
import Foundation

extension UserAdministration {
    public func createGroup(_ request: CreateGroupRequest) async throws -> CreateGroupResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let now = time.now
        let group = GroupRecord(
            poolId: pool.id, name: request.groupName, description: request.description, roleArn: request.roleArn,
            precedence: request.precedence, createdAt: now, updatedAt: now)
        do {
            try await store.write { try await $0.insertGroup(group) }
        } catch StoreError.conflict(.group) {
            throw CognitoError(.groupExists, "A group with the name \(request.groupName) already exists.")
        }
        return CreateGroupResponse(group: group.wire)
    }

    public func getGroup(_ request: GetGroupRequest) async throws -> GetGroupResponse {
        GetGroupResponse(group: try await requireGroup(request.groupName, poolId: request.userPoolId).wire)
    }

    /// UpdateGroup changes only what the request names (unlike pools and clients).
    public func updateGroup(_ request: UpdateGroupRequest) async throws -> UpdateGroupResponse {
        _ = try await directory.requirePool(request.userPoolId)
        let now = time.now
        let group = try await store.write { transaction in
            guard var group = try await transaction.group(poolId: request.userPoolId, name: request.groupName) else {
                throw Self.groupNotFound
            }
            if let description = request.description { group.description = description }
            if let roleArn = request.roleArn { group.roleArn = roleArn }
            if let precedence = request.precedence { group.precedence = precedence }
            group.updatedAt = now
            try await transaction.updateGroup(group)
            return group
        }
        return UpdateGroupResponse(group: group.wire)
    }

    public func deleteGroup(_ request: DeleteGroupRequest) async throws -> EmptyResponse {
        _ = try await requireGroup(request.groupName, poolId: request.userPoolId)
        try await store.write { try await $0.deleteGroup(poolId: request.userPoolId, name: request.groupName) }
        return EmptyResponse()
    }

    public func listGroups(_ request: ListGroupsRequest) async throws -> ListGroupsResponse {
        _ = try await directory.requirePool(request.userPoolId)
        let after = try PageToken.decode(request.nextToken)
        let page = try await store.read {
            try await $0.listGroups(poolId: request.userPoolId, after: after, limit: request.limit ?? 60)
        }
        return ListGroupsResponse(groups: page.items.map(\.wire), nextToken: PageToken.encode(page.next))
    }

    public func adminAddUserToGroup(_ request: AdminAddUserToGroupRequest) async throws -> EmptyResponse {
        try await changeMembership(request.username, group: request.groupName, poolId: request.userPoolId) { tx, sub in
            try await tx.addUser(sub: sub, toGroup: request.groupName, poolId: request.userPoolId)
        }
        return EmptyResponse()
    }

    public func adminRemoveUserFromGroup(_ request: AdminRemoveUserFromGroupRequest) async throws -> EmptyResponse {
        try await changeMembership(request.username, group: request.groupName, poolId: request.userPoolId) { tx, sub in
            try await tx.removeUser(sub: sub, fromGroup: request.groupName, poolId: request.userPoolId)
        }
        return EmptyResponse()
    }

    public func adminListGroupsForUser(_ request: AdminListGroupsForUserRequest) async throws -> AdminListGroupsForUserResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let offset = try PageToken.decode(request.nextToken).map { Int($0) ?? 0 } ?? 0
        let limit = request.limit ?? 60
        let groups = try await store.read { transaction in
            let user = try await users.requireUser(request.username, in: pool, transaction)
            return try await transaction.groups(ofUser: user.sub, poolId: pool.id)
        }
        let page = Array(groups.dropFirst(offset).prefix(limit))
        let more = offset + page.count < groups.count
        return AdminListGroupsForUserResponse(
            groups: page.map(\.wire), nextToken: more ? PageToken.encode(String(offset + page.count)) : nil)
    }

    public func listUsersInGroup(_ request: ListUsersInGroupRequest) async throws -> ListUsersInGroupResponse {
        _ = try await requireGroup(request.groupName, poolId: request.userPoolId)
        let after = try PageToken.decode(request.nextToken)
        let page = try await store.read {
            try await $0.listUsers(inGroup: request.groupName, poolId: request.userPoolId, after: after, limit: request.limit ?? 60)
        }
        return ListUsersInGroupResponse(users: page.items.map { $0.wireUser() }, nextToken: PageToken.encode(page.next))
    }

    private func changeMembership(
        _ username: String, group: String, poolId: String,
        _ change: @escaping @Sendable (any StoreTransaction, String) async throws -> Void
    ) async throws {
        let pool = try await directory.requirePool(poolId)
        try await store.write { transaction in
            guard try await transaction.group(poolId: poolId, name: group) != nil else { throw Self.groupNotFound }
            let user = try await users.requireUser(username, in: pool, transaction)
            try await change(transaction, user.sub)
        }
    }

    private func requireGroup(_ name: String, poolId: String) async throws -> GroupRecord {
        _ = try await directory.requirePool(poolId)
        guard let group = try await store.read({ try await $0.group(poolId: poolId, name: name) }) else {
            throw Self.groupNotFound
        }
        return group
    }

    static let groupNotFound = CognitoError.resourceNotFound("Group not found.")
}

extension GroupRecord {
    var wire: GroupType {
        GroupType(
            groupName: name, userPoolId: poolId, description: description, roleArn: roleArn, precedence: precedence,
            lastModifiedDate: updatedAt, creationDate: createdAt)
    }
}
