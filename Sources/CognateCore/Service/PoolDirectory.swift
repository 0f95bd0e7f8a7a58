import CognateProtocol
import Foundation

/// The pools and app clients requests name, read through the node's ``ConfigurationCache``,
/// and the one way to change a pool (``editPool(_:_:)``).
public struct PoolDirectory: Sendable {
    let store: any Store
    let time: any TimeSource
    let cache: ConfigurationCache

    func cachedPool(_ id: String) async throws -> PoolRecord? {
        try await cache.pool(id, now: time.now) { try await store.read { try await $0.pool(id: id) } }
    }

    func cachedClient(_ id: String) async throws -> ClientRecord? {
        try await cache.client(id, now: time.now) { try await store.read { try await $0.client(id: id) } }
    }

    /// The pool, or Cognito's ResourceNotFoundException.
    func requirePool(_ id: String) async throws -> PoolRecord {
        guard let pool = try await cachedPool(id) else { throw Self.poolNotFound(id) }
        return pool
    }

    /// The client of a pool (admin calls name both).
    func requireClient(_ clientId: String, poolId: String) async throws -> (PoolRecord, ClientRecord) {
        let pool = try await requirePool(poolId)
        guard let client = try await cachedClient(clientId), client.poolId == poolId else {
            throw Self.clientNotFound(clientId)
        }
        return (pool, client)
    }

    /// The client named by a public call, and its pool.
    func requireClient(_ clientId: String) async throws -> (PoolRecord, ClientRecord) {
        guard let client = try await cachedClient(clientId), let pool = try await cachedPool(client.poolId) else {
            throw Self.clientNotFound(clientId)
        }
        return (pool, client)
    }

    /// Reads pool `id` in a write transaction, lets `change` edit it, stores it with a new
    /// `updatedAt`, records the change for the other nodes and drops it from this node's cache.
    /// Returns the stored pool. ResourceNotFoundException when there is no such pool.
    @discardableResult
    func editPool(_ id: String, _ change: @escaping @Sendable (inout PoolRecord) throws -> Void) async throws -> PoolRecord {
        let now = time.now
        let updated = try await store.write { transaction -> PoolRecord in
            guard var pool = try await transaction.pool(id: id) else { throw Self.poolNotFound(id) }
            try change(&pool)
            pool.updatedAt = now
            try await transaction.updatePool(pool)
            try await transaction.recordChange(.pool, subject: pool.id, at: now)
            return pool
        }
        cache.invalidatePool(id)
        return updated
    }

    /// The same for app client `clientId` of pool `poolId`. ResourceNotFoundException when the
    /// pool has no such client.
    @discardableResult
    func editClient(_ clientId: String, of poolId: String,
                    _ change: @escaping @Sendable (inout ClientRecord) throws -> Void) async throws -> ClientRecord {
        let now = time.now
        let updated = try await store.write { transaction -> ClientRecord in
            guard var client = try await transaction.client(id: clientId), client.poolId == poolId else {
                throw Self.clientNotFound(clientId)
            }
            try change(&client)
            client.updatedAt = now
            try await transaction.updateClient(client)
            try await transaction.recordChange(.client, subject: client.clientId, at: now)
            return client
        }
        cache.invalidateClient(clientId)
        return updated
    }

    static func poolNotFound(_ id: String) -> CognitoError {
        .resourceNotFound("User pool \(id) does not exist.")
    }

    static func clientNotFound(_ id: String) -> CognitoError {
        .resourceNotFound("User pool client \(id) does not exist.")
    }
}
