import Crypto
import CryptoExtras
import Foundation

/// An RSA key that signs tokens, identified by `kid`.
public struct SigningKey: Sendable {
    public let kid: String
    public let publicKey: _RSA.Signing.PublicKey
    let signer: RSASigner
    public let createdAt: Date

    init(record: SigningKeyRecord) throws {
        self.kid = record.kid
        self.publicKey = try _RSA.Signing.PrivateKey(pemRepresentation: record.privateKeyPEM).publicKey
        self.signer = try RSASigner(pem: record.privateKeyPEM)
        self.createdAt = record.createdAt
    }

    /// A new 2048-bit key; its kid is the base64url SHA-256 of the public key (RFC 7638 style).
    static func generate(at date: Date) throws -> SigningKeyRecord {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let kid = Base64URL.encode(Array(SHA256.hash(data: key.publicKey.derRepresentation)))
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
/// Contract (rotation never breaks a client):
/// - a new key (`cognate keys rotate`) is published in the JWKS at once, but signs only after
///   `activationDelay`, so every node and every JWKS cache has seen it before a token needs it;
/// - the signing key is the newest key past its activation (the first key ever signs at once);
/// - a key stays published, and accepted, until its successor has signed for longer than the
///   longest token lifetime (one day), so no unexpired token loses its key; then it is deleted.
public final class SigningKeyRing: @unchecked Sendable {
    public static let retentionAfterSuperseded: TimeInterval = 86_400 + 300

    let activationDelay: TimeInterval
    private let lock = NSLock()
    private var keys: [SigningKey] = []  // oldest first
    private var lastLoad = Date.distantPast

    public init(activationDelay: TimeInterval = 60) {
        self.activationDelay = activationDelay
    }

    /// Loads the keys, creating the first one when the store has none, and deletes keys whose
    /// retention has passed.
    public func refresh(from store: any Store, now: Date) async throws {
        var records = try await store.read { try await $0.signingKeys() }
        if records.isEmpty {
            // Nodes starting together on an empty database must agree on one first key: the
            // first to claim the marker inserts its key; the others wait for it and use it.
            let record = try SigningKey.generate(at: now)
            try await store.write { transaction in
                let claimed = try await transaction.insertServerSecretIfAbsent(
                    named: "first-signing-key", value: Array(record.kid.utf8))
                if claimed == Array(record.kid.utf8) { try await transaction.insertSigningKey(record) }
            }
            records = try await store.read { try await $0.signingKeys() }
        }
        records.sort { $0.createdAt < $1.createdAt }
        let expired = Self.expired(records, now: now, activationDelay: activationDelay)
        if !expired.isEmpty {
            try await store.write { transaction in
                for kid in expired { try await transaction.deleteSigningKey(kid: kid) }
            }
        }
        let loaded = try records.filter { !expired.contains($0.kid) }.map(SigningKey.init(record:))
        lock.withLock {
            keys = loaded
            lastLoad = now
        }
    }

    /// Reloads when a token names a key this node does not know (another node may have just
    /// rotated), at most once per `minimumInterval`, so unknown kids cannot flood the store.
    func refreshForUnknownKey(_ kid: String, from store: any Store, now: Date, minimumInterval: TimeInterval = 5) async throws {
        let stale = lock.withLock { !keys.contains { $0.kid == kid } && now.timeIntervalSince(lastLoad) >= minimumInterval }
        if stale { try await refresh(from: store, now: now) }
    }

    /// Keys whose successor has been signing for longer than the retention.
    static func expired(_ records: [SigningKeyRecord], now: Date, activationDelay: TimeInterval) -> Set<String> {
        var expired: Set<String> = []
        for (index, record) in records.enumerated().dropLast() {
            let successorActive = records[index + 1].createdAt + activationDelay
            if now.timeIntervalSince(successorActive) > retentionAfterSuperseded { expired.insert(record.kid) }
        }
        return expired
    }

    /// Adds a key that is published now and signs after the activation delay.
    public static func rotate(in store: any Store, now: Date) async throws -> String {
        let record = try SigningKey.generate(at: now)
        try await store.write { try await $0.insertSigningKey(record) }
        return record.kid
    }

    /// The key that signs at `now`.
    func signingKey(at now: Date) -> SigningKey? {
        lock.withLock {
            keys.last { $0.createdAt + activationDelay <= now } ?? keys.first
        }
    }

    func key(kid: String) -> SigningKey? {
        lock.withLock { keys.first { $0.kid == kid } }
    }

    /// `{"keys": [...]}` with every published key, newest first.
    public func jwks() throws -> [String: [[String: String]]] {
        let published = lock.withLock { keys }
        return ["keys": try published.reversed().map { try $0.jwk() }]
    }
}
