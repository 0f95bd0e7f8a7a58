import CognateProtocol
import Foundation

extension IdentityService {
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
}
