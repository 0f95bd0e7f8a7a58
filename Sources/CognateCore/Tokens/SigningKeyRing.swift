import Crypto
import CryptoExtras
import Foundation

/// An RSA key that signs tokens, identified by `kid`.
public struct SigningKey: Sendable {
    public let kid: String
    let privateKey: _RSA.Signing.PrivateKey
    public let createdAt: Date
    public let retiredAt: Date?

    public var publicKey: _RSA.Signing.PublicKey { privateKey.publicKey }

    init(record: SigningKeyRecord) throws {
        self.kid = record.kid
        self.privateKey = try _RSA.Signing.PrivateKey(pemRepresentation: record.privateKeyPEM)
        self.createdAt = record.createdAt
        self.retiredAt = record.retiredAt
    }

    /// A new 2048-bit key; its kid is the base64url SHA-256 of the public key (RFC 7638 style).
    static func generate(at date: Date) throws -> SigningKeyRecord {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let kid = Base64URL.encode(Array(SHA256Digest.of(key.publicKey.derRepresentation)))
        return SigningKeyRecord(kid: kid, privateKeyPEM: key.pemRepresentation, createdAt: date)
    }

    /// The JSON Web Key of the public half.
    func jwk() throws -> [String: String] {
        let primitives = try publicKey.getKeyPrimitives()
        return [
            "alg": "RS256", "kty": "RSA", "use": "sig", "kid": kid,
            "n": Base64URL.encode(primitives.modulus), "e": Base64URL.encode(primitives.publicExponent),
        ]
    }
}

/// The server's signing keys, shared by every node through the store.
///
/// Contract: the newest non-retired key signs; every key is published (JWKS) and accepted for
/// verification until it has been retired for longer than the longest token lifetime (one
/// day), so rotating never invalidates an unexpired token. Nodes pick up keys rotated by
/// another node on ``refresh(from:)``.
public final class SigningKeyRing: @unchecked Sendable {
    /// Access and ID tokens live at most one day; a retired key is kept this long after.
    public static let retentionAfterRetirement: TimeInterval = 86_400 + 300

    private let lock = NSLock()
    private var keys: [SigningKey] = []  // newest first

    public init() {}

    /// Loads the keys, creating the first one when the store has none.
    public func refresh(from store: any Store, now: Date) async throws {
        var records = try await store.read { try await $0.signingKeys() }
        if !records.contains(where: { $0.retiredAt == nil }) {
            let record = try SigningKey.generate(at: now)
            try await store.write { try await $0.insertSigningKey(record) }
            records = try await store.read { try await $0.signingKeys() }
        }
        let loaded = try records
            .filter { $0.retiredAt.map { now.timeIntervalSince($0) < Self.retentionAfterRetirement } ?? true }
            .map(SigningKey.init(record:))
            .sorted { $0.createdAt > $1.createdAt }
        lock.withLock { keys = loaded }
    }

    /// Adds a new key that signs from now on and retires the previous ones (they stay published).
    public static func rotate(in store: any Store, now: Date) async throws -> String {
        let record = try SigningKey.generate(at: now)
        try await store.write { transaction in
            for old in try await transaction.signingKeys() where old.retiredAt == nil {
                try await transaction.retireSigningKey(kid: old.kid, at: now)
            }
            try await transaction.insertSigningKey(record)
        }
        return record.kid
    }

    var activeKey: SigningKey? {
        lock.withLock { keys.first { $0.retiredAt == nil } ?? keys.first }
    }

    func key(kid: String) -> SigningKey? {
        lock.withLock { keys.first { $0.kid == kid } }
    }

    /// `{"keys": [...]}` with every published key.
    public func jwks() throws -> [String: [[String: String]]] {
        let published = lock.withLock { keys }
        return ["keys": try published.map { try $0.jwk() }]
    }
}

enum SHA256Digest {
    static func of(_ data: Data) -> [UInt8] {
        Array(Crypto.SHA256.hash(data: data))
    }
}
