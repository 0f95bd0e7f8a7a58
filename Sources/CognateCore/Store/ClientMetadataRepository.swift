import Foundation

/// A Client ID Metadata Document (CIMD) policy: the HTTPS URL patterns under which OAuth
/// clients may name themselves by their metadata document's URL, and the one app client of the
/// pool whose settings they sign in under.
public struct CIMDPolicyRecord: Sendable, Equatable {
    public var poolId: String
    public var policyId: String
    /// The app client the policy maps to; it may have been deleted since (the policy stays,
    /// and is described without it).
    public var clientId: String
    public var name: String
    /// How long a fetched document is kept when its Cache-Control sets no usable max-age, in seconds.
    public var cacheDuration: Int
    public var urlPatterns: [String]
    public var createdAt: Date
    public var updatedAt: Date

    public init(poolId: String, policyId: String, clientId: String, name: String, cacheDuration: Int,
                urlPatterns: [String], createdAt: Date, updatedAt: Date) {
        self.poolId = poolId
        self.policyId = policyId
        self.clientId = clientId
        self.name = name
        self.cacheDuration = cacheDuration
        self.urlPatterns = urlPatterns
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A client metadata document URL a policy has received, with the document cached from it
/// (nil once invalidated).
public struct ClientMetadataURLRecord: Sendable, Equatable {
    public var policyId: String
    public var url: String
    public var cachedAt: Date?
    public var expiresAt: Date?
    /// The document as fetched (JSON text).
    public var document: String?

    public init(policyId: String, url: String, cachedAt: Date? = nil, expiresAt: Date? = nil, document: String? = nil) {
        self.policyId = policyId
        self.url = url
        self.cachedAt = cachedAt
        self.expiresAt = expiresAt
        self.document = document
    }
}

public protocol ClientMetadataRepository: Sendable {
    /// Stores a new policy; `StoreError.referenceMissing` when its pool is gone.
    func insertCIMDPolicy(_ policy: CIMDPolicyRecord) async throws
    func cimdPolicy(id: String) async throws -> CIMDPolicyRecord?
    /// Returns whether the policy existed.
    @discardableResult func updateCIMDPolicy(_ policy: CIMDPolicyRecord) async throws -> Bool
    /// Deletes the policy with its URLs; returns whether it existed.
    @discardableResult func deleteCIMDPolicy(id: String) async throws -> Bool
    /// The pool's policies ordered by id, starting after `after`.
    func cimdPolicies(poolId: String, after: String?, limit: Int) async throws -> Page<CIMDPolicyRecord>
    func cimdPolicyCount(poolId: String) async throws -> Int
    /// Every pool's policies (a pool has at most 20), for finding the one a URL client ID names.
    func allCIMDPolicies() async throws -> [CIMDPolicyRecord]

    /// Records a URL (and its cached document) for a policy, replacing what was recorded.
    func saveClientMetadataURL(_ url: ClientMetadataURLRecord) async throws
    func clientMetadataURL(policyId: String, url: String) async throws -> ClientMetadataURLRecord?
    /// A policy's URLs ordered by URL, starting after `after`.
    func clientMetadataURLs(policyId: String, after: String?, limit: Int) async throws -> Page<ClientMetadataURLRecord>
    /// Returns whether the URL was recorded.
    @discardableResult func deleteClientMetadataURL(policyId: String, url: String) async throws -> Bool
}
