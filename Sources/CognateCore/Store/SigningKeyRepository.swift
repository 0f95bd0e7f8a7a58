import Foundation

/// A token signing key (see `SigningKeyRing` for when it signs and how long it is published).
public struct SigningKeyRecord: Sendable, Equatable {
    public var kid: String
    /// PKCS#8 PEM of the RSA private key.
    public var privateKeyPEM: String
    public var createdAt: Date

    public init(kid: String, privateKeyPEM: String, createdAt: Date) {
        self.kid = kid
        self.privateKeyPEM = privateKeyPEM
        self.createdAt = createdAt
    }
}

public protocol SigningKeyRepository: Sendable {
    func signingKeys() async throws -> [SigningKeyRecord]
    /// Throws `StoreError.conflict(.signingKey)` when the kid exists.
    func insertSigningKey(_ key: SigningKeyRecord) async throws
    func deleteSigningKey(kid: String) async throws
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
