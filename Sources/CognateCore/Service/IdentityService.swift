import CognateProtocol
import Crypto
import Foundation

/// The use cases of Cognate: one method per API operation, taking and returning the wire types
/// of CognateProtocol. The server decodes, authenticates admin calls and calls these; nothing
/// here knows about HTTP or SQL.
///
/// Each area lives in its own extension file (`IdentityService+SignUp.swift` …).
public final class IdentityService: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let delivery: any MessageDelivery
    let configuration: CoreConfiguration
    let keys: SigningKeyRing
    let cache: ConfigurationCache
    let codes: CodeBook
    let tokens: TokenIssuer
    let accessTokens: AccessTokenVerifier

    /// Prepares the service: loads (or creates) the signing keys and the code-hash secret.
    public static func start(
        store: any Store, delivery: any MessageDelivery, configuration: CoreConfiguration,
        time: any TimeSource = SystemTime(), random: any RandomSource = SystemRandom()
    ) async throws -> IdentityService {
        let keys = SigningKeyRing(activationDelay: configuration.keyActivationDelay)
        try await keys.refresh(from: store, now: time.now)
        let codeKey = try await store.write { transaction in
            try await transaction.insertServerSecretIfAbsent(named: "code-hash-key", value: random.bytes(32))
        }
        return IdentityService(
            store: store, time: time, random: random, delivery: delivery, configuration: configuration, keys: keys,
            codeKey: SymmetricKey(data: codeKey))
    }

    init(store: any Store, time: any TimeSource, random: any RandomSource, delivery: any MessageDelivery,
         configuration: CoreConfiguration, keys: SigningKeyRing, codeKey: SymmetricKey) {
        self.store = store
        self.time = time
        self.random = random
        self.delivery = delivery
        self.configuration = configuration
        self.keys = keys
        self.cache = ConfigurationCache(ttl: configuration.configurationCacheTTL)
        self.codes = CodeBook(key: codeKey, random: random)
        self.tokens = TokenIssuer(keys: keys, issuerBase: configuration.publicBaseURL, random: random)
        self.accessTokens = AccessTokenVerifier(keys: keys, issuerBase: configuration.publicBaseURL)
    }

    /// The JWKS every pool publishes.
    public func jwks() throws -> [String: [[String: String]]] { try keys.jwks() }

    /// Reloads signing keys rotated by another node (call periodically).
    public func refreshSigningKeys() async throws { try await keys.refresh(from: store, now: time.now) }

    /// The issuer of a pool's tokens.
    public func issuer(poolId: String) -> String { tokens.issuer(poolId: poolId) }

    /// Whether a pool exists (for the discovery endpoints).
    public func poolExists(_ poolId: String) async throws -> Bool { try await cachedPool(poolId) != nil }

    /// Whether the store answers.
    public func ping() async throws { try await store.ping() }
}
