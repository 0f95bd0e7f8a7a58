import CognateProtocol
import Foundation

extension ClientAdministration {
    /// AddUserPoolClientSecret: a second secret for a client that has one (given, or 64
    /// random characters), valid beside the first until one of them is deleted — rotation
    /// without downtime. At most two secrets.
    public func addUserPoolClientSecret(_ request: AddUserPoolClientSecretRequest) async throws
        -> AddUserPoolClientSecretResponse
    {
        let now = time.now
        let added = try await editClient(request.clientId, poolId: request.userPoolId) { client in
            guard client.secret != nil else {
                throw CognitoError.invalidParameter("The app client has no secret (GenerateSecret when it is created).")
            }
            guard client.secrets.count < 2 else {
                throw CognitoError(.limitExceeded, "An app client can have at most 2 secrets; delete one first.")
            }
            let value = request.clientSecret ?? self.random.string(64, from: Self.secretAlphabet)
            guard !client.secrets.contains(value) else { throw CognitoError.invalidParameter("The client already has this secret.") }
            let secret = StoredClientSecret(
                id: "\(client.clientId)--\(Int(now.timeIntervalSince1970 * 1000))", value: value, createdAt: now)
            client.extraSecrets.append(secret)
            return secret
        }
        return AddUserPoolClientSecretResponse(clientSecretDescriptor: ClientSecretDescriptorType(
            clientSecretId: added.id, clientSecretValue: added.value, clientSecretCreateDate: added.createdAt))
    }

    /// ListUserPoolClientSecrets: ids and creation times, never values.
    public func listUserPoolClientSecrets(_ request: ListUserPoolClientSecretsRequest) async throws
        -> ListUserPoolClientSecretsResponse
    {
        let (_, client) = try await directory.requireClient(request.clientId, poolId: request.userPoolId)
        return ListUserPoolClientSecretsResponse(clientSecrets: Self.secretEntries(client).map {
            ClientSecretDescriptorType(clientSecretId: $0.id, clientSecretCreateDate: $0.createdAt)
        })
    }

    /// DeleteUserPoolClientSecret: ends one secret; the client's last one cannot go. Deleting
    /// the first makes the added one the client's main secret.
    public func deleteUserPoolClientSecret(_ request: DeleteUserPoolClientSecretRequest) async throws
        -> DeleteUserPoolClientSecretResponse
    {
        _ = try await editClient(request.clientId, poolId: request.userPoolId) { client in
            let entries = Self.secretEntries(client)
            guard entries.contains(where: { $0.id == request.clientSecretId }) else {
                throw CognitoError.resourceNotFound("Client secret \(request.clientSecretId) does not exist.")
            }
            guard entries.count > 1 else { throw CognitoError.invalidParameter("The app client's only secret cannot be deleted.") }
            if entries.first?.id == request.clientSecretId {
                let promoted = client.extraSecrets.removeFirst()
                client.settings.clientSecret = promoted.value
                client.mainSecret = MainClientSecret(id: promoted.id, createdAt: promoted.createdAt)
            } else {
                client.extraSecrets.removeAll { $0.id == request.clientSecretId }
            }
        }
        return DeleteUserPoolClientSecretResponse()
    }

    /// The client's secrets with ids: the main one (named after the client's creation), then the added ones.
    private static func secretEntries(_ client: ClientRecord) -> [StoredClientSecret] {
        guard let main = client.secret else { return [] }
        let named = client.mainSecret
            ?? MainClientSecret(id: "\(client.clientId)--\(Int(client.createdAt.timeIntervalSince1970 * 1000))",
                                createdAt: client.createdAt)
        return [StoredClientSecret(id: named.id, value: main, createdAt: named.createdAt)] + client.extraSecrets
    }

    /// Reads a client, lets `change` edit it, stores it and drops it from the cache on every node.
    private func editClient<Result: Sendable>(
        _ clientId: String, poolId: String, _ change: @escaping @Sendable (inout ClientRecord) throws -> Result
    ) async throws -> Result {
        let pool = try await directory.requirePool(poolId)
        let result = try await store.write { transaction -> Result in
            guard var client = try await transaction.client(id: clientId), client.poolId == pool.id else {
                throw PoolDirectory.clientNotFound(clientId)
            }
            let result = try change(&client)
            client.updatedAt = self.time.now
            try await transaction.updateClient(client)
            try await transaction.recordChange(.client, subject: client.clientId, at: client.updatedAt)
            return result
        }
        cache.invalidateClient(clientId)
        return result
    }

    static let secretAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
}
