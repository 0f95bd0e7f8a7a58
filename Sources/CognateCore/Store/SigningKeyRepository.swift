import Foundation

/// A token signing key (see `SigningKeyRing` for when it signs and how long it is published).
public struct SigningKeyRecord: Sendable, Equatable {
    public var kid: String
    /// The pool whose tokens it signs; nil for a key from before keys per pool, which every
    /// pool publishes until it expires.
    public var poolId: String?
    /// PKCS#8 PEM of the RSA private key.
    public var privateKeyPEM: String
    public var createdAt: Date
    /// From when it signs (it is published from `createdAt`).
    public var activatesAt: Date
    /// When it stops being published and accepted (set once a successor signs: one token
    /// lifetime later); nil while it is the newest key.
    public var expiresAt: Date?
    /// Set by `cognate keys retire`: never published or accepted again.
    public var retiredAt: Date?

    public init(kid: String, poolId: String?, privateKeyPEM: String, createdAt: Date, activatesAt: Date,
                expiresAt: Date? = nil, retiredAt: Date? = nil) {
        self.kid = kid
        self.poolId = poolId
        self.privateKeyPEM = privateKeyPEM
        self.createdAt = createdAt
        self.activatesAt = activatesAt
        self.expiresAt = expiresAt
        self.retiredAt = retiredAt
    }
}

public protocol SigningKeyRepository: Sendable {
    /// The pool's keys and the keys of no pool, oldest first, retired and expired ones included.
    func signingKeys(poolId: String) async throws -> [SigningKeyRecord]
    /// Every key, oldest first (for operators).
    func allSigningKeys() async throws -> [SigningKeyRecord]
    /// Throws `StoreError.conflict(.signingKey)` when the kid exists.
    func insertSigningKey(_ key: SigningKeyRecord) async throws
    /// Sets `expiresAt` on every key of the pool except `kid` that has none yet.
    func expireSigningKeys(poolId: String, except kid: String, at date: Date) async throws
    /// Marks the key retired; returns it, or nil when there is no such key.
    func retireSigningKey(kid: String, at date: Date) async throws -> SigningKeyRecord?
}

/// Named secrets the server generates once and shares between nodes (e.g. the code-hash key).
public protocol ServerSecretRepository: Sendable {
    func serverSecret(named name: String) async throws -> [UInt8]?
    /// Stores the secret unless one of that name exists; returns the stored one either way.
    func insertServerSecretIfAbsent(named name: String, value: [UInt8]) async throws -> [UInt8]
}

/// Fixed-window counters for per-user rate limits (code requests per hour and the like).
public protocol CounterRepository: Sendable {
    /// Adds one to the counter of `key` in the window starting at `windowStart` and returns the
    /// new count; windows before `windowStart` are forgotten.
    func incrementCounter(key: String, windowStart: Date) async throws -> Int
}
