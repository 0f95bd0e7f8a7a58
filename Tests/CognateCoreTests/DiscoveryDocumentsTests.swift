import CognateProtocol
import Foundation
import Synchronization
import Testing

@testable import CognateCore

/// Identity providers' discovery documents, kept per provider (compat/test_federation.py counts
/// the fetches a running server makes).
struct DiscoveryDocumentsTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)
    let key = DiscoveryDocuments.Key(poolId: "us-east-1_A", provider: "Upstream")

    /// A fetch that counts its calls and answers a document naming the call.
    final class Fetcher: Sendable {
        let calls = Mutex(0)
        let lifetime: TimeInterval

        init(lifetime: TimeInterval = 900) { self.lifetime = lifetime }

        func fetch() async throws -> ([String: JSONValue], TimeInterval) {
            let call = calls.withLock { $0 += 1; return $0 }
            return (["call": .number(Double(call))], lifetime)
        }

        var count: Int { calls.withLock { $0 } }
    }

    @Test func cacheControlIsHonouredWithinBounds() {
        #expect(DiscoveryDocuments.lifetime(cacheControl: nil) == 15 * 60)
        #expect(DiscoveryDocuments.lifetime(cacheControl: "public, max-age=3600") == 3600)
        #expect(DiscoveryDocuments.lifetime(cacheControl: "max-age=\"7200\"") == 7200)
        #expect(DiscoveryDocuments.lifetime(cacheControl: "max-age=5") == 60)
        #expect(DiscoveryDocuments.lifetime(cacheControl: "max-age=31536000") == 24 * 60 * 60)
        #expect(DiscoveryDocuments.lifetime(cacheControl: "no-store") == 60)
        #expect(DiscoveryDocuments.lifetime(cacheControl: "max-age=3600, no-cache") == 60)
        #expect(DiscoveryDocuments.lifetime(cacheControl: "private") == 15 * 60)
        #expect(DiscoveryDocuments.lifetime(cacheControl: "max-age=soon") == 15 * 60)
    }

    @Test func aDocumentIsFetchedOnceUntilItExpires() async throws {
        let cache = DiscoveryDocuments()
        let fetcher = Fetcher(lifetime: 120)
        for second in 0..<120 {
            let document = try await cache.document(key, version: "v1", now: start + Double(second), fetch: fetcher.fetch)
            #expect(document["call"] == .number(1))
        }
        #expect(fetcher.count == 1)
        _ = try await cache.document(key, version: "v1", now: start + 120, fetch: fetcher.fetch)
        #expect(fetcher.count == 2)
    }

    @Test func aChangedProviderOrADropMisses() async throws {
        let cache = DiscoveryDocuments()
        let fetcher = Fetcher()
        _ = try await cache.document(key, version: "v1", now: start, fetch: fetcher.fetch)
        _ = try await cache.document(key, version: "v2", now: start, fetch: fetcher.fetch)
        #expect(fetcher.count == 2)
        await cache.drop(key)
        _ = try await cache.document(key, version: "v2", now: start, fetch: fetcher.fetch)
        #expect(fetcher.count == 3)
        let other = DiscoveryDocuments.Key(poolId: "us-east-1_B", provider: "Upstream")
        _ = try await cache.document(other, version: "v2", now: start, fetch: fetcher.fetch)
        #expect(fetcher.count == 4)
    }

    @Test func concurrentMissesShareOneFetch() async throws {
        let cache = DiscoveryDocuments()
        let fetcher = Fetcher()
        let slow: @Sendable () async throws -> ([String: JSONValue], TimeInterval) = {
            try await Task.sleep(for: .milliseconds(100))
            return try await fetcher.fetch()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask { _ = try await cache.document(key, version: "v1", now: start, fetch: slow) }
            }
            try await group.waitForAll()
        }
        #expect(fetcher.count == 1)
    }

    @Test func aFailedFetchIsNotKept() async throws {
        struct Down: Error {}
        let cache = DiscoveryDocuments()
        await #expect(throws: Down.self) {
            _ = try await cache.document(key, version: "v1", now: start) { throw Down() }
        }
        let fetcher = Fetcher()
        _ = try await cache.document(key, version: "v1", now: start, fetch: fetcher.fetch)
        #expect(fetcher.count == 1)
    }

    @Test func aFullCacheDropsTheExpiredThenTheSoonestToExpire() async throws {
        let cache = DiscoveryDocuments(capacity: 3)
        func keep(_ name: String, lifetime: TimeInterval, at now: Date) async throws {
            _ = try await cache.document(
                DiscoveryDocuments.Key(poolId: "p", provider: name), version: "v", now: now
            ) { (["name": .string(name)], lifetime) }
        }
        try await keep("a", lifetime: 60, at: start)
        try await keep("b", lifetime: 600, at: start)
        try await keep("c", lifetime: 300, at: start)
        try await keep("d", lifetime: 600, at: start + 61)   // full: a has expired
        try await keep("e", lifetime: 600, at: start + 62)   // full: c expires first
        #expect(await cache.count == 3)
        let fetcher = Fetcher()
        for name in ["b", "d", "e"] {
            _ = try await cache.document(
                DiscoveryDocuments.Key(poolId: "p", provider: name), version: "v", now: start + 63, fetch: fetcher.fetch)
        }
        #expect(fetcher.count == 0)
        _ = try await cache.document(
            DiscoveryDocuments.Key(poolId: "p", provider: "c"), version: "v", now: start + 63, fetch: fetcher.fetch)
        #expect(fetcher.count == 1)
    }
}
