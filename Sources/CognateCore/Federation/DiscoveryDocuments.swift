import CognateProtocol
import Foundation

/// The OpenID discovery documents of identity providers, kept per provider, so that anonymous
/// `/login?identity_provider=…` requests do not each make this node fetch one.
///
/// Contract: an entry belongs to a pool's provider (by name) as it was when fetched — its
/// `version`, the provider's last change and discovery URL: a provider changed since, on any
/// node, misses, and UpdateIdentityProvider and DeleteIdentityProvider drop its entry here at
/// once (`drop`). An entry lives as long as the answer's `Cache-Control: max-age` says, within
/// `shortest` (60 s) and `longest` (a day); 15 minutes when the answer gives none; `no-store`
/// and `no-cache` count as 0 and get the shortest. At most `capacity` entries: a full cache
/// drops the expired ones, then the one due to expire first. Concurrent misses for a provider
/// share one fetch; a failed fetch is not kept (the next request tries again).
actor DiscoveryDocuments {
    struct Key: Hashable, Sendable {
        var poolId: String
        var provider: String
    }

    typealias Document = [String: JSONValue]

    static let shortest: TimeInterval = 60
    static let longest: TimeInterval = 24 * 60 * 60
    static let unstated: TimeInterval = 15 * 60

    let capacity: Int
    private var entries: [Key: (version: String, document: Document, expires: Date)] = [:]
    private var fetching: [Key: (version: String, task: Task<(Document, TimeInterval), any Error>)] = [:]

    init(capacity: Int = 1000) { self.capacity = capacity }

    /// The document of `key` at `version`: kept, or fetched by `fetch` (the document and how
    /// long it may be kept, `lifetime(cacheControl:)`).
    func document(
        _ key: Key, version: String, now: Date,
        fetch: @escaping @Sendable () async throws -> (Document, TimeInterval)
    ) async throws -> Document {
        if let entry = entries[key], entry.version == version, now < entry.expires { return entry.document }
        let task: Task<(Document, TimeInterval), any Error>
        if let running = fetching[key], running.version == version {
            task = running.task
        } else {
            task = Task { try await fetch() }
            fetching[key] = (version, task)
        }
        let result: Result<(Document, TimeInterval), any Error> = await task.result
        if fetching[key]?.task == task { fetching[key] = nil }
        let (document, lifetime) = try result.get()
        keep(key, version: version, document: document, expires: now.addingTimeInterval(lifetime), now: now)
        return document
    }

    /// Forgets the document of `key` (its provider changed or is gone).
    func drop(_ key: Key) {
        entries[key] = nil
        fetching[key] = nil
    }

    var count: Int { entries.count }

    private func keep(_ key: Key, version: String, document: Document, expires: Date, now: Date) {
        if entries[key] == nil, entries.count >= capacity {
            entries = entries.filter { now < $0.value.expires }
            if entries.count >= capacity, let soonest = entries.min(by: { $0.value.expires < $1.value.expires })?.key {
                entries[soonest] = nil
            }
        }
        entries[key] = (version, document, expires)
    }

    /// How long an answer with this `Cache-Control` header may be kept, within the bounds.
    static func lifetime(cacheControl: String?) -> TimeInterval {
        guard let stated = CacheControl.maxAge(cacheControl) else { return unstated }
        return min(max(stated, shortest), longest)
    }

}
