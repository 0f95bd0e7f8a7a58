import Foundation

/// Pools and clients read on every request, cached per node for a short time.
///
/// Contract: a change made on this node is visible here at once (the writer invalidates); a
/// change made on another node is visible as soon as this node reads the change feed (about a
/// second), and within `ttl` seconds whatever happens. Misses are not cached, so requests
/// naming pools or clients that do not exist cannot fill memory.
final class ConfigurationCache: @unchecked Sendable {
    private struct Entry<Value> {
        var value: Value?
        var fetchedAt: Date
    }

    private let ttl: TimeInterval
    private let lock = NSLock()
    private var pools: [String: Entry<PoolRecord>] = [:]
    private var clients: [String: Entry<ClientRecord>] = [:]

    init(ttl: TimeInterval) { self.ttl = ttl }

    func pool(_ id: String, now: Date, load: () async throws -> PoolRecord?) async rethrows -> PoolRecord? {
        if let entry = lock.withLock({ pools[id] }), now.timeIntervalSince(entry.fetchedAt) < ttl { return entry.value }
        let value = try await load()
        lock.withLock { pools[id] = value.map { Entry(value: $0, fetchedAt: now) } }
        return value
    }

    func client(_ id: String, now: Date, load: () async throws -> ClientRecord?) async rethrows -> ClientRecord? {
        if let entry = lock.withLock({ clients[id] }), now.timeIntervalSince(entry.fetchedAt) < ttl { return entry.value }
        let value = try await load()
        lock.withLock { clients[id] = value.map { Entry(value: $0, fetchedAt: now) } }
        return value
    }

    func invalidatePool(_ id: String) {
        lock.withLock {
            pools[id] = nil
            clients = clients.filter { $0.value.value?.poolId != id }
        }
    }

    func invalidateClient(_ id: String) { lock.withLock { clients[id] = nil } }
}
