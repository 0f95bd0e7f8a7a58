import CognateProtocol
import Foundation

/// Client ID Metadata Document (CIMD) policies (CreateCIMDPolicy … DeleteCIMDPolicy) and the
/// metadata document URLs each has received (ListClientMetadataURLs,
/// UpdateClientMetadataURLState).
///
/// A policy maps HTTPS URL patterns (``CIMDURLPattern``) to one app client of the pool: an
/// OAuth client whose `client_id` is a URL the patterns admit signs in under that app client's
/// settings, as its metadata document allows. The OAuth endpoints resolve such URLs
/// (``MetadataDocumentClients``), which records them and caches their documents.
public struct ClientMetadataDocuments: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let directory: PoolDirectory
}

extension ClientMetadataDocuments {
    /// How long a document is cached when a policy sets no CacheDuration (Cognito's default).
    static let defaultCacheDuration = 86_400
    /// Policies a pool may have (Cognate's bound; Cognito's quota is not published with the API).
    static let policiesPerPool = 20
    /// Items per page of ListCIMDPolicies and ListClientMetadataURLs when MaxResults is absent.
    static let pageSize = 60

    public func createCIMDPolicy(_ request: CreateCIMDPolicyRequest) async throws -> CreateCIMDPolicyResponse {
        let (pool, client) = try await directory.requireClient(request.clientId, poolId: request.userPoolId)
        let patterns = try Self.checkedPatterns(request.urlPatterns)
        let now = time.now
        let policy = CIMDPolicyRecord(
            poolId: pool.id, policyId: Self.hex(random.bytes(16)), clientId: client.clientId, name: request.policyName,
            cacheDuration: request.cacheDuration ?? Self.defaultCacheDuration, urlPatterns: patterns, createdAt: now,
            updatedAt: now)
        do {
            try await store.write { transaction in
                guard try await transaction.cimdPolicyCount(poolId: policy.poolId) < Self.policiesPerPool else {
                    throw CognitoError(
                        .limitExceeded, "User pool \(policy.poolId) has \(Self.policiesPerPool) CIMD policies, the most it may have.")
                }
                try await transaction.insertCIMDPolicy(policy)
            }
        } catch StoreError.referenceMissing {
            throw PoolDirectory.poolNotFound(pool.id)
        }
        return CreateCIMDPolicyResponse(cimdPolicy: Self.described(policy, clientExists: true))
    }

    public func describeCIMDPolicy(_ request: DescribeCIMDPolicyRequest) async throws -> DescribeCIMDPolicyResponse {
        let policy = try await requirePolicy(request.cimdPolicyId, poolId: request.userPoolId)
        return DescribeCIMDPolicyResponse(
            cimdPolicy: Self.described(policy, clientExists: try await clientExists(policy)))
    }

    /// UpdateCIMDPolicy: a new app client and URL patterns (both required), name and cache
    /// duration when given. URLs recorded for the policy that no pattern admits any more are
    /// forgotten with their documents.
    public func updateCIMDPolicy(_ request: UpdateCIMDPolicyRequest) async throws -> UpdateCIMDPolicyResponse {
        var policy = try await requirePolicy(request.cimdPolicyId, poolId: request.userPoolId)
        let (_, client) = try await directory.requireClient(request.clientId, poolId: request.userPoolId)
        policy.urlPatterns = try Self.checkedPatterns(request.urlPatterns)
        policy.clientId = client.clientId
        if let name = request.policyName { policy.name = name }
        if let duration = request.cacheDuration { policy.cacheDuration = duration }
        policy.updatedAt = time.now
        let updated = policy
        let matchers = updated.urlPatterns.compactMap { try? CIMDURLPattern.parse($0).get() }
        try await store.write { transaction in
            guard try await transaction.updateCIMDPolicy(updated) else {
                throw Self.policyNotFound(updated.policyId)
            }
            var after: String? = nil
            repeat {
                let page = try await transaction.clientMetadataURLs(policyId: updated.policyId, after: after, limit: 500)
                for recorded in page.items where !matchers.contains(where: { $0.admits(recorded.url) }) {
                    try await transaction.deleteClientMetadataURL(policyId: updated.policyId, url: recorded.url)
                }
                after = page.next
            } while after != nil
        }
        return UpdateCIMDPolicyResponse(cimdPolicy: Self.described(updated, clientExists: true))
    }

    public func deleteCIMDPolicy(_ request: DeleteCIMDPolicyRequest) async throws -> DeleteCIMDPolicyResponse {
        let policy = try await requirePolicy(request.cimdPolicyId, poolId: request.userPoolId)
        guard try await store.write({ try await $0.deleteCIMDPolicy(id: policy.policyId) }) else {
            throw Self.policyNotFound(policy.policyId)
        }
        return DeleteCIMDPolicyResponse()
    }

    public func listCIMDPolicies(_ request: ListCIMDPoliciesRequest) async throws -> ListCIMDPoliciesResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let after = try PageToken.decode(request.nextToken)
        let page = try await store.read {
            try await $0.cimdPolicies(poolId: pool.id, after: after, limit: request.maxResults ?? Self.pageSize)
        }
        var summaries: [CIMDPolicySummaryType] = []
        for policy in page.items {
            summaries.append(CIMDPolicySummaryType(
                cimdPolicyId: policy.policyId, clientId: try await clientExists(policy) ? policy.clientId : nil,
                policyName: policy.name, cacheDuration: policy.cacheDuration, creationDate: policy.createdAt,
                lastModifiedDate: policy.updatedAt))
        }
        return ListCIMDPoliciesResponse(nextToken: PageToken.encode(page.next), cimdPolicies: summaries)
    }

    /// ListClientMetadataURLs: the URLs recorded for a policy, with when their document was
    /// cached and when it expires (neither once invalidated).
    public func listClientMetadataURLs(_ request: ListClientMetadataURLsRequest) async throws
        -> ListClientMetadataURLsResponse
    {
        let policy = try await requirePolicy(request.cimdPolicyId, poolId: request.userPoolId)
        let after = try PageToken.decode(request.nextToken)
        let page = try await store.read {
            try await $0.clientMetadataURLs(policyId: policy.policyId, after: after, limit: request.maxResults ?? Self.pageSize)
        }
        return ListClientMetadataURLsResponse(
            nextToken: PageToken.encode(page.next),
            clientMetadataURLs: page.items.map {
                ClientMetadataURLType(url: $0.url, cachedDate: $0.cachedAt, expirationDate: $0.expiresAt)
            })
    }

    /// UpdateClientMetadataURLState: INVALIDATE drops the cached document (the URL stays
    /// listed, without dates); REFRESH makes it due at once, so that its next use fetches it
    /// again. Either needs a cached document: CachedCIMDURLDoesNotExistException otherwise.
    public func updateClientMetadataURLState(_ request: UpdateClientMetadataURLStateRequest) async throws
        -> UpdateClientMetadataURLStateResponse
    {
        let policy = try await requirePolicy(request.cimdPolicyId, poolId: request.userPoolId)
        let now = time.now
        try await store.write { transaction in
            guard var recorded = try await transaction.clientMetadataURL(policyId: policy.policyId, url: request.url),
                recorded.document != nil
            else {
                throw CognitoError(
                    .cachedCIMDURLDoesNotExist,
                    "No client metadata document is cached for \(request.url) under CIMD policy \(policy.policyId).")
            }
            if request.action == .invalidate {
                recorded.document = nil
                recorded.cachedAt = nil
                recorded.expiresAt = nil
            } else if request.action == .refresh {
                recorded.expiresAt = min(recorded.expiresAt ?? now, now)
            } else {
                throw CognitoError.invalidParameter("Action must be REFRESH or INVALIDATE.")
            }
            try await transaction.saveClientMetadataURL(recorded)
        }
        return UpdateClientMetadataURLStateResponse()
    }

    // MARK: - Helpers

    private func requirePolicy(_ id: String, poolId: String) async throws -> CIMDPolicyRecord {
        let pool = try await directory.requirePool(poolId)
        guard let policy = try await store.read({ try await $0.cimdPolicy(id: id) }), policy.poolId == pool.id else {
            throw Self.policyNotFound(id)
        }
        return policy
    }

    /// Whether the policy's app client still exists (Cognito omits a deleted one).
    private func clientExists(_ policy: CIMDPolicyRecord) async throws -> Bool {
        try await directory.cachedClient(policy.clientId)?.poolId == policy.poolId
    }

    static func policyNotFound(_ id: String) -> CognitoError {
        CognitoError.resourceNotFound("CIMD policy \(id) does not exist.")
    }

    static func described(_ policy: CIMDPolicyRecord, clientExists: Bool) -> CIMDPolicyType {
        CIMDPolicyType(
            userPoolId: policy.poolId, cimdPolicyId: policy.policyId, clientId: clientExists ? policy.clientId : nil,
            policyName: policy.name, cacheDuration: policy.cacheDuration, urlPatterns: policy.urlPatterns,
            creationDate: policy.createdAt, lastModifiedDate: policy.updatedAt)
    }

    /// The patterns as given, each one a ``CIMDURLPattern``, no two alike.
    static func checkedPatterns(_ patterns: [String]) throws -> [String] {
        for pattern in patterns {
            if case .failure(let refusal) = CIMDURLPattern.parse(pattern) {
                throw CognitoError.invalidParameter("URLPatterns: \(refusal.message)")
            }
        }
        guard Set(patterns).count == patterns.count else {
            throw CognitoError.invalidParameter("URLPatterns must not repeat a pattern.")
        }
        return patterns
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
