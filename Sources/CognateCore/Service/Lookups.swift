import CognateProtocol
import Foundation

extension IdentityService {
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

    static func poolNotFound(_ id: String) -> CognitoError {
        .resourceNotFound("User pool \(id) does not exist.")
    }

    static func clientNotFound(_ id: String) -> CognitoError {
        .resourceNotFound("User pool client \(id) does not exist.")
    }
}
