import CognateProtocol
import Foundation

extension IdentityService {
    public func createUserPool(_ request: CreateUserPoolRequest) async throws -> CreateUserPoolResponse {
        if let aliases = request.aliasAttributes, !aliases.isEmpty, let usernames = request.usernameAttributes,
            !usernames.isEmpty
        {
            throw CognitoError.invalidParameter("Only one of the aliasAttributes or usernameAttributes can be set in a User Pool.")
        }
        try PoolSettings.checkAutoVerified(request.autoVerifiedAttributes)
        try PoolSettings.checkRecovery(request.accountRecoverySetting)
        let now = time.now
        let settings = UserPoolType(
            policies: PoolSettings.passwordPolicy(request.policies),
            deletionProtection: request.deletionProtection ?? .inactive,
            lambdaConfig: request.lambdaConfig ?? LambdaConfigType(),
            schemaAttributes: try PoolSchemaBuilder.build(from: request.schema),
            autoVerifiedAttributes: request.autoVerifiedAttributes,
            aliasAttributes: request.aliasAttributes,
            usernameAttributes: request.usernameAttributes,
            smsVerificationMessage: request.smsVerificationMessage,
            emailVerificationMessage: request.emailVerificationMessage,
            emailVerificationSubject: request.emailVerificationSubject,
            verificationMessageTemplate: PoolSettings.verificationTemplate(request.verificationMessageTemplate),
            smsAuthenticationMessage: request.smsAuthenticationMessage,
            userAttributeUpdateSettings: request.userAttributeUpdateSettings,
            mfaConfiguration: request.mfaConfiguration ?? .off,
            deviceConfiguration: request.deviceConfiguration,
            emailConfiguration: request.emailConfiguration,
            smsConfiguration: request.smsConfiguration,
            userPoolTags: request.userPoolTags,
            adminCreateUserConfig: PoolSettings.adminCreateUserConfig(request.adminCreateUserConfig),
            userPoolAddOns: request.userPoolAddOns,
            usernameConfiguration: request.usernameConfiguration,
            accountRecoverySetting: request.accountRecoverySetting,
            userPoolTier: request.userPoolTier ?? .essentials)
        var pool = PoolRecord(id: "", name: request.poolName, createdAt: now, updatedAt: now, settings: settings)
        for _ in 0..<5 {
            pool.id = configuration.region + "_" + random.string(9, from: Alphabet.alphanumeric)
            do {
                try await store.write { [pool] in try await $0.insertPool(pool) }
                return CreateUserPoolResponse(userPool: describe(pool, estimatedUsers: 0))
            } catch StoreError.conflict(.pool) {
                continue
            }
        }
        throw CognitoError.internalError("Could not allocate a user pool id.")
    }

    public func describeUserPool(_ request: DescribeUserPoolRequest) async throws -> DescribeUserPoolResponse {
        let (pool, users) = try await store.read { transaction in
            guard let pool = try await transaction.pool(id: request.userPoolId) else {
                throw Self.poolNotFound(request.userPoolId)
            }
            return (pool, try await transaction.countUsers(poolId: pool.id))
        }
        return DescribeUserPoolResponse(userPool: describe(pool, estimatedUsers: users))
    }

    public func updateUserPool(_ request: UpdateUserPoolRequest) async throws -> UpdateUserPoolResponse {
        try PoolSettings.checkAutoVerified(request.autoVerifiedAttributes)
        try PoolSettings.checkRecovery(request.accountRecoverySetting)
        let now = time.now
        try await store.write { transaction in
            guard var pool = try await transaction.pool(id: request.userPoolId) else {
                throw Self.poolNotFound(request.userPoolId)
            }
            // A full replacement of the mutable settings: what the request omits reverts to
            // its default, as in Cognito.
            var s = pool.settings
            s.policies = PoolSettings.passwordPolicy(request.policies)
            s.deletionProtection = request.deletionProtection ?? .inactive
            s.lambdaConfig = request.lambdaConfig ?? LambdaConfigType()
            s.autoVerifiedAttributes = request.autoVerifiedAttributes
            s.smsVerificationMessage = request.smsVerificationMessage
            s.emailVerificationMessage = request.emailVerificationMessage
            s.emailVerificationSubject = request.emailVerificationSubject
            s.verificationMessageTemplate = PoolSettings.verificationTemplate(request.verificationMessageTemplate)
            s.smsAuthenticationMessage = request.smsAuthenticationMessage
            s.userAttributeUpdateSettings = request.userAttributeUpdateSettings
            s.mfaConfiguration = request.mfaConfiguration ?? .off
            s.deviceConfiguration = request.deviceConfiguration
            s.emailConfiguration = request.emailConfiguration
            s.smsConfiguration = request.smsConfiguration
            s.userPoolTags = request.userPoolTags
            s.adminCreateUserConfig = PoolSettings.adminCreateUserConfig(request.adminCreateUserConfig)
            s.userPoolAddOns = request.userPoolAddOns
            s.accountRecoverySetting = request.accountRecoverySetting
            s.userPoolTier = request.userPoolTier ?? s.userPoolTier
            pool.settings = s
            if let name = request.poolName { pool.name = name }
            pool.updatedAt = now
            try await transaction.updatePool(pool)
        }
        cache.invalidatePool(request.userPoolId)
        return UpdateUserPoolResponse()
    }

    public func deleteUserPool(_ request: DeleteUserPoolRequest) async throws -> EmptyResponse {
        try await store.write { transaction in
            guard let pool = try await transaction.pool(id: request.userPoolId) else {
                throw Self.poolNotFound(request.userPoolId)
            }
            if pool.settings.deletionProtection == .active {
                throw CognitoError.invalidParameter(
                    "The user pool cannot be deleted because deletion protection is activated. Deletion protection must be inactivated first.")
            }
            try await transaction.deletePool(id: pool.id)
        }
        cache.invalidatePool(request.userPoolId)
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
