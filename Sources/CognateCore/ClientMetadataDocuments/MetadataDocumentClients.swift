import Foundation

/// An OAuth client named by its metadata document's URL, resolved: the CIMD policy that admits
/// it, the app client whose settings it signs in under, and its document.
struct MetadataDocumentClient: Sendable {
    var url: String
    var policy: CIMDPolicyRecord
    var pool: PoolRecord
    var client: ClientRecord
    var document: ClientMetadataDocument
}

/// Resolves URL client IDs at the OAuth endpoints (docs/oauth.md, "Client ID metadata
/// documents").
///
/// Contract: a URL is resolved only when it is a well-formed document URL (https, a path, no
/// query, fragment, user info or dot segment, at most 256 characters) that the patterns of
/// exactly one CIMD policy of the deployment admit, mapped to an app client that exists. Its
/// document is the one cached for the policy while it has not expired (ListClientMetadataURLs
/// shows it); otherwise it is fetched through the ``MetadataDocumentFetcher`` (public
/// addresses only, no redirect, 5 KB, 5 s), must answer 200 with a valid
/// ``ClientMetadataDocument``, and is kept for its `Cache-Control: max-age` when that lies
/// between a day and a year, else for the policy's CacheDuration. Only valid documents are
/// recorded. Every refusal is ``MetadataDocumentClients/Unresolved`` with a reason for the
/// operator's log — never for the caller, whose URL may point anywhere.
struct MetadataDocumentClients: Sendable {
    let store: any Store
    let time: any TimeSource
    let directory: PoolDirectory
    let fetcher: any MetadataDocumentFetcher
    let log: @Sendable (String) -> Void
    /// URLs whose document was refused lately: not fetched again for five minutes, so that no
    /// one can make the server hit an admitted host with every request.
    let refused = RecentRefusals()

    struct Unresolved: Error {
        var reason: String
        /// Whether a policy admits the URL (else it is nobody's concern: not logged).
        var admitted = true
    }



    /// Whether `clientId` names a client by URL rather than an app client's ID.
    static func isURL(_ clientId: String) -> Bool { clientId.lowercased().hasPrefix("https://") }

    static let maximumURLLength = 256
    static let minimumCacheSeconds: TimeInterval = 86_400
    static let maximumCacheSeconds: TimeInterval = 31_556_952

    func resolve(_ url: String) async throws -> MetadataDocumentClient {
        do {
            return try await resolving(url)
        } catch let unresolved as Unresolved {
            // Only URLs a policy admits are worth the operator's attention (and a log line).
            if unresolved.admitted {
                let shown = String(url.prefix(Self.maximumURLLength).unicodeScalars.map {
                    $0.value < 0x20 || $0.value == 0x7f ? "?" : Character($0)
                })
                log("A client ID metadata document URL was refused: \(shown): \(unresolved.reason).")
            }
            throw unresolved
        }
    }

    private func resolving(_ url: String) async throws -> MetadataDocumentClient {
        guard url.count <= Self.maximumURLLength, CIMDURLPattern.isCanonicalDocumentURL(url), let address = URL(string: url)
        else {
            throw Unresolved(reason: "not a URL of at most \(Self.maximumURLLength) characters with a host in lower case")
        }
        let policies = try await store.read { try await $0.allCIMDPolicies() }
        let admitting = policies.filter { policy in
            policy.urlPatterns.contains { pattern in
                if case .success(let parsed) = CIMDURLPattern.parse(pattern) { parsed.admits(url) } else { false }
            }
        }
        guard let policy = admitting.first else { throw Unresolved(reason: "no CIMD policy admits it", admitted: false) }
        guard admitting.count == 1 else {
            throw Unresolved(reason: "\(admitting.count) CIMD policies admit it (\(admitting.map(\.policyId).joined(separator: ", ")))")
        }
        guard let (pool, client) = try? await directory.requireClient(policy.clientId), pool.id == policy.poolId else {
            throw Unresolved(reason: "the app client of CIMD policy \(policy.policyId) no longer exists")
        }
        let now = time.now
        let recorded = try await store.read { try await $0.clientMetadataURL(policyId: policy.policyId, url: url) }
        if let recorded, let text = recorded.document, let expires = recorded.expiresAt, now < expires,
            let document = try? ClientMetadataDocument.parse(Data(text.utf8), for: url)
        {
            return MetadataDocumentClient(url: url, policy: policy, pool: pool, client: client, document: document)
        }
        if refused.contains(url, now: now) { throw Unresolved(reason: "it was refused less than five minutes ago") }
        let answer: UpstreamAnswer
        let document: ClientMetadataDocument
        do {
            do {
                answer = try await fetcher.fetch(address)
            } catch {
                throw Unresolved(reason: "the document could not be fetched: \(error)")
            }
            guard answer.status == 200 else { throw Unresolved(reason: "the document's URL answered HTTP \(answer.status)") }
            do {
                document = try ClientMetadataDocument.parse(answer.body, for: url)
            } catch {
                throw Unresolved(reason: "the document is refused: \(error)")
            }
        } catch {
            refused.add(url, now: now)
            throw error
        }
        let seconds = CacheControl.maxAge(answer.headers["cache-control"])
            .flatMap { (Self.minimumCacheSeconds...Self.maximumCacheSeconds).contains($0) ? Int($0) : nil }
            ?? policy.cacheDuration
        let record = ClientMetadataURLRecord(
            policyId: policy.policyId, url: url, cachedAt: now, expiresAt: now + TimeInterval(seconds),
            document: String(decoding: answer.body, as: UTF8.self))
        try await store.write { try await $0.saveClientMetadataURL(record) }
        return MetadataDocumentClient(url: url, policy: policy, pool: pool, client: client, document: document)
    }


}

/// URLs refused lately, per node, for five minutes; at most 10,000 (beyond, the oldest half is
/// forgotten).
final class RecentRefusals: @unchecked Sendable {
    static let lifetime: TimeInterval = 300
    static let capacity = 10_000
    private let lock = NSLock()
    private var entries: [String: Date] = [:]

    func contains(_ url: String, now: Date) -> Bool {
        lock.withLock { entries[url].map { now.timeIntervalSince($0) < Self.lifetime } ?? false }
    }

    func add(_ url: String, now: Date) {
        lock.withLock {
            if entries.count >= Self.capacity {
                let kept = entries.sorted { $0.value > $1.value }.prefix(Self.capacity / 2)
                entries = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
            }
            entries[url] = now
        }
    }
}
