import CognateCore
import Foundation


extension SQLTransaction: GroupRepository {
    func insertGroup(_ group: GroupRecord) async throws {
        try await insert(
            """
            INSERT INTO user_groups (pool_id, name, description, role_arn, precedence, created_at, updated_at) VALUES \
            (\(bind: group.poolId), \(bind: group.name), \(bind: group.description), \(bind: group.roleArn), \
            \(bind: group.precedence), \(bind: Columns.time(group.createdAt)), \(bind: Columns.time(group.updatedAt)))
            """, conflict: .group)
    }

    func group(poolId: String, name: String) async throws -> GroupRecord? {
        try await first("SELECT * FROM user_groups WHERE pool_id = \(bind: poolId) AND name = \(bind: name)")
            .map { try Self.group(from: $0) }
    }

    func updateGroup(_ group: GroupRecord) async throws {
        try await run(
            """
            UPDATE user_groups SET description = \(bind: group.description), role_arn = \(bind: group.roleArn), \
            precedence = \(bind: group.precedence), updated_at = \(bind: Columns.time(group.updatedAt)) \
            WHERE pool_id = \(bind: group.poolId) AND name = \(bind: group.name)
            """)
    }

    func deleteGroup(poolId: String, name: String) async throws {
        try await run("DELETE FROM user_groups WHERE pool_id = \(bind: poolId) AND name = \(bind: name)")
    }

    func listGroups(poolId: String, after: String?, limit: Int) async throws -> Page<GroupRecord> {
        let rows = try await all(
            """
            SELECT * FROM user_groups WHERE pool_id = \(bind: poolId) AND name > \(bind: after ?? "") \
            ORDER BY name LIMIT \(bind: limit + 1)
            """)
        return try Self.page(rows.map { try Self.group(from: $0) }, limit: limit, key: \.name)
    }

    func addUser(sub: String, toGroup name: String, poolId: String) async throws {
        try await run(
            """
            INSERT INTO group_members (pool_id, group_name, user_sub) VALUES (\(bind: poolId), \(bind: name), \(bind: sub)) \
            ON CONFLICT (pool_id, group_name, user_sub) DO NOTHING
            """)
    }

    func removeUser(sub: String, fromGroup name: String, poolId: String) async throws {
        try await run(
            """
            DELETE FROM group_members WHERE pool_id = \(bind: poolId) AND group_name = \(bind: name) \
            AND user_sub = \(bind: sub)
            """)
    }

    func groups(ofUser sub: String, poolId: String) async throws -> [GroupRecord] {
        try await all(
            """
            SELECT g.* FROM group_members m JOIN user_groups g ON g.pool_id = m.pool_id AND g.name = m.group_name \
            WHERE m.pool_id = \(bind: poolId) AND m.user_sub = \(bind: sub)
            """).map { try Self.group(from: $0) }.sorted(by: Self.inTokenOrder)
    }

    /// The order of a user's groups in tokens: by precedence, groups without one last, then by
    /// name (byte order, as the names' collation). Sorted here, not by the statements, so the
    /// one rule serves both reads of a user's groups (`groups(ofUser:)`, the refresh's join).
    static func inTokenOrder(_ first: GroupRecord, _ second: GroupRecord) -> Bool {
        switch (first.precedence, second.precedence) {
        case let (a?, b?) where a != b: a < b
        case (nil, _?): false
        case (_?, nil): true
        default: first.name.utf8.lexicographicallyPrecedes(second.name.utf8)
        }
    }

    static let groupColumns = ["pool_id", "name", "description", "role_arn", "precedence", "created_at", "updated_at"]

    /// Joins the groups of the user `u` (a row per group, one row of NULLs without any) to a
    /// read of that user; `groupSelectColumns` selects their columns, `groups(in:)` reads them back.
    static let groupJoin = """
        LEFT JOIN group_members m ON m.pool_id = u.pool_id AND m.user_sub = u.sub \
        LEFT JOIN user_groups g ON g.pool_id = m.pool_id AND g.name = m.group_name
        """
    static let groupSelectColumns = groupColumns.map { ", g.\($0) AS group_\($0)" }.joined()

    /// The groups of the rows of a read joined with `groupJoin`, in token order.
    static func groups(in rows: [SQLRow]) throws -> [GroupRecord] {
        try rows.filter { try $0.optionalString("group_name") != nil }
            .map { try group(from: $0, prefix: "group_") }.sorted(by: inTokenOrder)
    }

    func listUsers(inGroup name: String, poolId: String, after: String?, limit: Int) async throws -> Page<UserRecord> {
        let rows = try await all(
            """
            SELECT u.* FROM group_members m JOIN users u ON u.pool_id = m.pool_id AND u.sub = m.user_sub \
            WHERE m.pool_id = \(bind: poolId) AND m.group_name = \(bind: name) AND u.username_key > \(bind: after ?? "") \
            ORDER BY u.username_key LIMIT \(bind: limit + 1)
            """)
        return Self.page(try await withAttributes(rows), limit: limit, key: \.usernameKey)
    }

    /// The group in `row`, whose column names start with `prefix`.
    static func group(from row: SQLRow, prefix: String = "") throws -> GroupRecord {
        GroupRecord(
            poolId: try row.string(prefix + "pool_id"), name: try row.string(prefix + "name"),
            description: try row.optionalString(prefix + "description"), roleArn: try row.optionalString(prefix + "role_arn"),
            precedence: try row.optionalInt64(prefix + "precedence").map(Int.init),
            createdAt: try row.date(prefix + "created_at"), updatedAt: try row.date(prefix + "updated_at"))
    }
}
