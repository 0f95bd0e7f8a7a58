import CognateProtocol
import Foundation

/// App clients and their secrets.
public struct ClientAdministration: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let configuration: CoreConfiguration
    let cache: ConfigurationCache
    let directory: PoolDirectory
}

extension ClientAdministration {
    public func createUserPoolClient(_ request: CreateUserPoolClientRequest) async throws -> CreateUserPoolClientResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        if request.generateSecret == true && request.clientSecret != nil {
            throw CognitoError.invalidParameter("GenerateSecret and ClientSecret can not both be set.")
        }
        let now = time.now
        var settings = try ClientSettings.normalized(request.requestedSettings, pool: pool, isCreation: true)
        settings.clientSecret = request.clientSecret
            ?? (request.generateSecret == true ? random.string(51, from: Alphabet.lowerAlphanumeric) : nil)
        var client = ClientRecord(
            poolId: pool.id, clientId: "", name: request.clientName, createdAt: now, updatedAt: now, settings: settings)
        for _ in 0..<5 {
            client.clientId = random.string(26, from: Alphabet.lowerAlphanumeric)
            do {
                try await store.write { [client] transaction in
                    try await IdPInitiatedClients.check(
                        client.settings.supportedIdentityProviders ?? [], poolId: pool.id, in: transaction)
                    try await transaction.insertClient(client)
                }
                return CreateUserPoolClientResponse(userPoolClient: describe(client))
            } catch StoreError.conflict(.client) {
                continue
            }
        }
        throw CognitoError.internalError("Could not allocate a client id.")
    }

    public func describeUserPoolClient(_ request: DescribeUserPoolClientRequest) async throws
        -> DescribeUserPoolClientResponse
    {
        let client = try await storedClient(request.clientId, poolId: request.userPoolId)
        return DescribeUserPoolClientResponse(userPoolClient: describe(client))
    }

    public func updateUserPoolClient(_ request: UpdateUserPoolClientRequest) async throws -> UpdateUserPoolClientResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let now = time.now
        let settings = try ClientSettings.normalized(request.requestedSettings, pool: pool, isCreation: false)
        let client = try await store.write { transaction in
            guard var client = try await transaction.client(id: request.clientId), client.poolId == pool.id else {
                throw PoolDirectory.clientNotFound(request.clientId)
            }
            try await IdPInitiatedClients.check(settings.supportedIdentityProviders ?? [], poolId: pool.id, in: transaction)
            let secret = client.settings.clientSecret
            client.settings = settings
            client.settings.clientSecret = secret
            if let name = request.clientName { client.name = name }
            client.updatedAt = now
            try await transaction.updateClient(client)
            try await transaction.recordChange(.client, subject: client.clientId, at: now)
            return client
        }
        cache.invalidateClient(request.clientId)
        return UpdateUserPoolClientResponse(userPoolClient: describe(client))
    }

    public func deleteUserPoolClient(_ request: DeleteUserPoolClientRequest) async throws -> EmptyResponse {
        _ = try await storedClient(request.clientId, poolId: request.userPoolId)
        let now = time.now
        try await store.write { transaction in
            try await transaction.deleteClient(poolId: request.userPoolId, clientId: request.clientId)
            try await transaction.recordChange(.client, subject: request.clientId, at: now)
        }
        cache.invalidateClient(request.clientId)
        return EmptyResponse()
    }

    public func listUserPoolClients(_ request: ListUserPoolClientsRequest) async throws -> ListUserPoolClientsResponse {
        _ = try await directory.requirePool(request.userPoolId)
        let after = try PageToken.decode(request.nextToken)
        let page = try await store.read {
            try await $0.listClients(poolId: request.userPoolId, after: after, limit: request.maxResults ?? 60)
        }
        return ListUserPoolClientsResponse(
            userPoolClients: page.items.map {
                UserPoolClientDescription(clientId: $0.clientId, userPoolId: $0.poolId, clientName: $0.name)
            },
            nextToken: PageToken.encode(page.next))
    }

    /// The client from the store (not the cache): admin reads show the latest configuration.
    private func storedClient(_ clientId: String, poolId: String) async throws -> ClientRecord {
        _ = try await directory.requirePool(poolId)
        guard let client = try await store.read({ try await $0.client(id: clientId) }), client.poolId == poolId else {
            throw PoolDirectory.clientNotFound(clientId)
        }
        return client
    }

    func describe(_ client: ClientRecord) -> UserPoolClientType {
        var type = client.settings
        type.userPoolId = client.poolId
        type.clientName = client.name
        type.clientId = client.clientId
        type.creationDate = client.createdAt
        type.lastModifiedDate = client.updatedAt
        return type
    }
}
