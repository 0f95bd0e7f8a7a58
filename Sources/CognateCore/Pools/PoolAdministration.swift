import CognateProtocol
import Foundation

/// User pools: create, describe, update, delete, list; custom attributes, tags, MFA configuration,
/// the PIN policy, signing keys and certificates.
public struct PoolAdministration: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let configuration: CoreConfiguration
    let cache: ConfigurationCache
    let keys: SigningKeyRing
    let directory: PoolDirectory
}

extension PoolAdministration {
    public func createUserPool(_ request: CreateUserPoolRequest) async throws -> CreateUserPoolResponse {
        if let aliases = request.aliasAttributes, !aliases.isEmpty, let usernames = request.usernameAttributes,
            !usernames.isEmpty
        {
            throw CognitoError.invalidParameter("Only one of the aliasAttributes or usernameAttributes can be set in a User Pool.")
        }
        let now = time.now
        var settings = UserPoolType(
            schemaAttributes: try PoolSchemaBuilder.build(from: request.schema), aliasAttributes: request.aliasAttributes,
            usernameAttributes: request.usernameAttributes, usernameConfiguration: request.usernameConfiguration)
        try request.apply(to: &settings)
        var pool = PoolRecord(id: "", name: request.poolName, createdAt: now, updatedAt: now, settings: settings)
        for _ in 0..<5 {
            pool.id = configuration.region + "_" + random.string(9, from: Alphabet.alphanumeric)
            let key = try SigningKeyRing.firstKey(for: pool.id, now: now)  // its own keys, from the start
            do {
                try await store.write { [pool] transaction in
                    try await transaction.insertPool(pool)
                    try await transaction.insertSigningKey(key)
                }
                return CreateUserPoolResponse(userPool: describe(pool, estimatedUsers: 0))
            } catch StoreError.conflict(.pool) {
                continue
            }
        }
        throw CognitoError.internalError("Could not allocate a user pool id.")
    }

    public func describeUserPool(_ request: DescribeUserPoolRequest) async throws -> DescribeUserPoolResponse {
        let (pool, users, domain) = try await store.read { transaction in
            guard let pool = try await transaction.pool(id: request.userPoolId) else {
                throw PoolDirectory.poolNotFound(request.userPoolId)
            }
            return (pool, try await transaction.countUsers(poolId: pool.id), try await transaction.domain(ofPool: pool.id))
        }
        var described = describe(pool, estimatedUsers: users)
        described.domain = domain?.domain
        return DescribeUserPoolResponse(userPool: described)
    }

    public func updateUserPool(_ request: UpdateUserPoolRequest) async throws -> UpdateUserPoolResponse {
        try await directory.editPool(request.userPoolId) { pool in
            try request.apply(to: &pool.settings)
            if let name = request.poolName { pool.name = name }
        }
        return UpdateUserPoolResponse()
    }

    public func deleteUserPool(_ request: DeleteUserPoolRequest) async throws -> EmptyResponse {
        try await store.write { transaction in
            guard let pool = try await transaction.pool(id: request.userPoolId) else {
                throw PoolDirectory.poolNotFound(request.userPoolId)
            }
            if pool.settings.deletionProtection == .active {
                throw CognitoError.invalidParameter(
                    "The user pool cannot be deleted because deletion protection is activated. Deletion protection must be inactivated first.")
            }
            try await transaction.deletePool(id: pool.id)
            try await transaction.recordChange(.pool, subject: pool.id, at: self.time.now)
        }
        cache.invalidatePool(request.userPoolId)
        keys.forget(poolId: request.userPoolId)
        return EmptyResponse()
    }

    public func listUserPools(_ request: ListUserPoolsRequest) async throws -> ListUserPoolsResponse {
        let after = try PageToken.decode(request.nextToken)
        let page = try await store.read { try await $0.listPools(after: after, limit: request.maxResults) }
        return ListUserPoolsResponse(
            userPools: page.items.map { pool in
                UserPoolDescriptionType(
                    id: pool.id, name: pool.name, lambdaConfig: pool.settings.lambdaConfig ?? LambdaConfigType(),
                    lastModifiedDate: pool.updatedAt, creationDate: pool.createdAt)
            },
            nextToken: PageToken.encode(page.next))
    }

    /// The pool as DescribeUserPool shows it.
    func describe(_ pool: PoolRecord, estimatedUsers: Int) -> UserPoolType {
        var type = pool.settings
        type.id = pool.id
        type.name = pool.name
        type.arn = "arn:aws:cognito-idp:\(configuration.region):\(configuration.accountId):userpool/\(pool.id)"
        type.creationDate = pool.createdAt
        type.lastModifiedDate = pool.updatedAt
        type.estimatedNumberOfUsers = estimatedUsers
        return type
    }
}

extension PoolAdministration {
    /// The JWKS of a pool (its own keys only); nil when there is no such pool.
    public func jwks(poolId: String) async throws -> [String: [[String: String]]]? {
        guard try await directory.cachedPool(poolId) != nil else { return nil }
        return try await keys.jwks(for: poolId, now: time.now)
    }

    /// Whether a pool exists (for the discovery endpoints).
    public func poolExists(_ poolId: String) async throws -> Bool { try await directory.cachedPool(poolId) != nil }
}
