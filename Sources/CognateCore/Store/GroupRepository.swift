import Foundation

/// A group of a pool.
public struct GroupRecord: Sendable, Equatable {
    public var poolId: String
    public var name: String
    public var description: String?
    public var roleArn: String?
    public var precedence: Int?
    public var createdAt: Date
    public var updatedAt: Date

    public init(poolId: String, name: String, description: String?, roleArn: String?, precedence: Int?,
                createdAt: Date, updatedAt: Date) {
        self.poolId = poolId
        self.name = name
        self.description = description
        self.roleArn = roleArn
        self.precedence = precedence
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

public protocol GroupRepository: Sendable {
    /// Throws `StoreError.conflict(.group)` when the pool has a group of that name.
    func insertGroup(_ group: GroupRecord) async throws
    func group(poolId: String, name: String) async throws -> GroupRecord?
    func updateGroup(_ group: GroupRecord) async throws
    /// Deletes the group and its memberships.
    func deleteGroup(poolId: String, name: String) async throws
    func listGroups(poolId: String, after: String?, limit: Int) async throws -> Page<GroupRecord>
    /// Adds the membership (nothing happens if it exists).
    func addUser(sub: String, toGroup name: String, poolId: String) async throws
    func removeUser(sub: String, fromGroup name: String, poolId: String) async throws
    /// The user's groups, by precedence (lowest first; groups without one last), then name.
    func groups(ofUser sub: String, poolId: String) async throws -> [GroupRecord]
    func listUsers(inGroup name: String, poolId: String, after: String?, limit: Int) async throws -> Page<UserRecord>
}
