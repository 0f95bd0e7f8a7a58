import CognateProtocol
import Crypto
import CryptoExtras
import Foundation

/// An RSA key that signs one pool's tokens, identified by `kid`.
public struct SigningKey: Sendable {
    public let kid: String
    public let poolId: String?
    public let publicKey: _RSA.Signing.PublicKey
    let signer: RSASigner
    public let activatesAt: Date
    /// The base64url JWT header of the tokens it signs (the same for every one of them).
    let encodedHeader: String

    init(record: SigningKeyRecord) throws {
        self.kid = record.kid
        self.poolId = record.poolId
        self.publicKey = try _RSA.Signing.PrivateKey(pemRepresentation: record.privateKeyPEM).publicKey
        self.signer = try RSASigner(pem: record.privateKeyPEM)
        self.activatesAt = record.activatesAt
        self.encodedHeader = Base64URL.encode(JSONValue.object(["alg": "RS256", "kid": .string(record.kid)]).jsonBytes)
    }

    /// A new 2048-bit key for `poolId`; its kid is the base64url SHA-256 of the public key
    /// (RFC 7638 style).
    static func generate(poolId: String, at date: Date, activatesAt: Date) throws -> SigningKeyRecord {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let kid = Base64URL.encode(Array(SHA256.hash(data: key.publicKey.derRepresentation)))
        return SigningKeyRecord(
            kid: kid, poolId: poolId, privateKeyPEM: key.pemRepresentation, createdAt: date, activatesAt: activatesAt)
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

/// Every pool's signing keys, shared by every node through the store and loaded per pool on
/// first use.
///
/// Contract:
/// - each pool has keys of its own, created with the pool: its JWKS publishes only them, and a
///   token verifies only with a key of the pool its issuer names — a token of pool A never
///   verifies with pool B's keys, here or for anyone using B's JWKS;
/// - a new key (`cognate keys rotate`) is published at once but signs only after its
///   activation delay (stored with it), so every node and every JWKS cache has seen it before a
///   token needs it;
///   the keys it supersedes stay published, and accepted, for the longest token lifetime (one
///   day) after it starts signing, then expire;
/// - a retired key (`cognate keys retire`) is neither published nor accepted by a node from the
///   moment it learns of it (the change feed, within about a second); its pool gets a key that
///   signs at once;
/// - keys from before keys per pool (no pool) are published and accepted by every pool until
///   they expire (a day after the upgrade); a pool that has no key of its own gets one on first
///   use.
public final class SigningKeyRing: @unchecked Sendable {
    public static let retentionAfterSuperseded: TimeInterval = 86_400 + 300
    /// The key set of the identity-pool service's OpenID tokens: stored, rotated and retired
    /// like a pool's (`cognate keys rotate cognito-identity`), under a name no user pool id can
    /// have (pool ids have an underscore), so no pool's tokens verify with it or it with theirs.
    public static let identityKeySet = "cognito-identity"
    /// A pool's keys are reloaded for an unknown `kid` at most this often (unknown kids cannot
    /// flood the store).
    static let unknownKeyReloadInterval: TimeInterval = 5

    let store: any Store
    private let lock = NSLock()
    private var loaded: [String: LoadedKeys] = [:]
    private var loading: [String: Task<LoadedKeys, any Error>] = [:]
    /// Changes with every ``forget(poolId:)``: keys read before a forget are not kept after it.
    private var forgets = 0
    private var parsed: [String: SigningKey] = [:]

    struct LoadedKeys {
        /// Usable keys (not retired, not expired) in the order they sign; the pool's own, then
        /// shared ones.
        var own: [SigningKey]
        var shared: [SigningKey]
        var loadedAt: Date
        var all: [SigningKey] { own + shared }
    }

    public init(store: any Store) {
        self.store = store
    }

    // MARK: - Use

    /// The key that signs `poolId`'s tokens at `now`: its newest active key.
    func signingKey(for poolId: String, now: Date) async throws -> SigningKey {
        let keys = try await keys(for: poolId, now: now)
        guard let key = keys.own.last(where: { $0.activatesAt <= now }) ?? keys.own.first ?? keys.shared.last else {
            throw CognitoError.internalError("No signing key for \(poolId).")
        }
        return key
    }

    /// The key of `poolId` a token names, reloading the pool's keys once if it is unknown here
    /// (another node may have just rotated).
    func verificationKey(kid: String, poolId: String, now: Date) async throws -> SigningKey? {
        if let key = try await keys(for: poolId, now: now).all.first(where: { $0.kid == kid }) { return key }
        let stale = lock.withLock { loaded[poolId].map { now.timeIntervalSince($0.loadedAt) >= Self.unknownKeyReloadInterval } ?? true }
        guard stale else { return nil }
        forget(poolId: poolId)
        return try await keys(for: poolId, now: now).all.first { $0.kid == kid }
    }

    /// `{"keys": [...]}`: the pool's published keys, newest first.
    func jwks(for poolId: String, now: Date) async throws -> [String: [[String: String]]] {
        ["keys": try await keys(for: poolId, now: now).all.reversed().map { try $0.jwk() }]
    }

    /// Drops what this node loaded for a pool (nil: for every pool); the next use reloads it. A
    /// load under way meanwhile may have read the store before the change: it is not kept, and
    /// whoever waits for it loads again.
    func forget(poolId: String?) {
        lock.withLock {
            if let poolId {
                loaded[poolId] = nil
                loading[poolId] = nil
            } else {
                loaded.removeAll()
                loading.removeAll()
            }
            forgets += 1
        }
    }

    /// Reloads the pools this node has loaded (a safety net behind the change feed).
    func refreshLoaded(now: Date) async throws {
        let pools = lock.withLock { Array(loaded.keys) }
        for pool in pools {
            forget(poolId: pool)
            _ = try await keys(for: pool, now: now)
        }
    }

    // MARK: - Loading

    /// A pool's keys on this node: loaded, or a load to wait for with the count of forgets when
    /// it was joined.
    private enum Lookup {
        case loaded(LoadedKeys)
        case pending(Task<LoadedKeys, any Error>, forgetsAtJoin: Int)
    }

    private func keys(for poolId: String, now: Date) async throws -> LoadedKeys {
        var attempts = 0
        while true {
            let lookup: Lookup = lock.withLock {
                if let keys = loaded[poolId] { return .loaded(keys) }
                let task = loading[poolId] ?? Task { try await self.load(poolId, now: now) }
                loading[poolId] = task
                return .pending(task, forgetsAtJoin: forgets)
            }
            let task: Task<LoadedKeys, any Error>, started: Int
            switch lookup {
            case .loaded(let keys): return keys
            case .pending(let pending, let forgetsAtJoin): (task, started) = (pending, forgetsAtJoin)
            }
            attempts += 1
            let result: LoadedKeys
            do {
                result = try await task.value
            } catch {
                lock.withLock { if loading[poolId] == task { loading[poolId] = nil } }
                throw error
            }
            let current: Bool = lock.withLock {
                if loading[poolId] == task { loading[poolId] = nil }
                guard forgets == started else { return false }
                loaded[poolId] = result
                return true
            }
            // Forgotten while loading: what was read may predate the change, so read again
            // (served uncached after a few rounds, should forgets keep coming).
            if current || attempts >= 3 { return result }
        }
    }

    private func load(_ poolId: String, now: Date) async throws -> LoadedKeys {
        var records = try await store.read { try await $0.signingKeys(poolId: poolId) }
        if !records.contains(where: { $0.poolId == poolId && Self.isUsable($0, at: now) }) {
            // A pool from before keys per pool, or whose keys all went: it gets one that signs now.
            // Nothing is cached for a pool that does not exist (forged issuers cannot fill memory).
            let record = try SigningKey.generate(poolId: poolId, at: now, activatesAt: now)
            try await store.write { transaction in
                guard try await Self.keySetExists(poolId, in: transaction) else { throw PoolDirectory.poolNotFound(poolId) }
                try await transaction.insertSigningKey(record)
                try await transaction.recordChange(.signingKeys, subject: poolId, at: now)
            }
            records = try await store.read { try await $0.signingKeys(poolId: poolId) }
        }
        let usable = try records.filter { Self.isUsable($0, at: now) }
            .sorted { ($0.activatesAt, $0.createdAt) < ($1.activatesAt, $1.createdAt) }.map(parse)
        return LoadedKeys(
            own: usable.filter { $0.poolId == poolId }, shared: usable.filter { $0.poolId == nil }, loadedAt: now)
    }

    /// Whether keys may be made for `poolId`: a user pool that exists, or the identity key set.
    static func keySetExists(_ poolId: String, in transaction: any StoreTransaction) async throws -> Bool {
        if poolId == identityKeySet { return true }
        return try await transaction.pool(id: poolId) != nil
    }

    static func isUsable(_ record: SigningKeyRecord, at now: Date) -> Bool {
        record.retiredAt == nil && (record.expiresAt.map { now < $0 } ?? true)
    }

    /// Parses a key once per node (parsing costs far more than a lookup).
    private func parse(_ record: SigningKeyRecord) throws -> SigningKey {
        if let key = lock.withLock({ parsed[record.kid] }) { return key }
        let key = try SigningKey(record: record)
        lock.withLock { parsed[record.kid] = key }
        return key
    }

    // MARK: - Changes (the pool's creation, `cognate keys`)

    /// The first key of a new pool: it signs at once. Store it in the pool's transaction.
    static func firstKey(for poolId: String, now: Date) throws -> SigningKeyRecord {
        try SigningKey.generate(poolId: poolId, at: now, activatesAt: now)
    }

    /// Adds a key to `poolId` that is published now and signs after `activationDelay`; the
    /// pool's other keys expire one retention period after it starts signing.
    public static func rotate(poolId: String, in store: any Store, now: Date, activationDelay: TimeInterval) async throws
        -> SigningKeyRecord
    {
        let record = try SigningKey.generate(poolId: poolId, at: now, activatesAt: now + activationDelay)
        try await store.write { transaction in
            guard try await Self.keySetExists(poolId, in: transaction) else { throw PoolDirectory.poolNotFound(poolId) }
            try await transaction.insertSigningKey(record)
            try await transaction.expireSigningKeys(
                poolId: poolId, except: record.kid, at: record.activatesAt + retentionAfterSuperseded)
            try await transaction.recordChange(.signingKeys, subject: poolId, at: now)
        }
        return record
    }

    /// Stops publishing and accepting a key at once (a leaked key). A pool key is replaced by a
    /// new key that signs at once; tokens it signed stop verifying. Returns the retired key and
    /// its replacement, or nil for an unknown kid.
    public static func retire(kid: String, in store: any Store, now: Date) async throws
        -> (retired: SigningKeyRecord, replacement: SigningKeyRecord?)?
    {
        let keys = try await store.read { try await $0.allSigningKeys() }
        guard let target = keys.first(where: { $0.kid == kid }) else { return nil }
        let replacement = try target.poolId.map { try SigningKey.generate(poolId: $0, at: now, activatesAt: now) }
        let retired: SigningKeyRecord? = try await store.write { transaction in
            guard let retired = try await transaction.retireSigningKey(kid: kid, at: now) else { return nil }
            if let replacement { try await transaction.insertSigningKey(replacement) }
            try await transaction.recordChange(.signingKeys, subject: retired.poolId ?? "*", at: now)
            return retired
        }
        return retired.map { ($0, replacement) }
    }
}
