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
    /// What requests that only answer read users through (GetUser, userInfo).
    let snapshots: any UserSnapshots
    let time: any TimeSource
    let random: any RandomSource
    let deliveryQueue: DeliveryQueue
    let triggers: Triggers
    let configuration: CoreConfiguration
    let keys: SigningKeyRing
    let cache: ConfigurationCache
    let codes: CodeBook
    let tokens: TokenIssuer
    let accessTokens: AccessTokenVerifier
    /// Calls to identity providers (federation).
    let upstream: any UpstreamHTTP
    /// Identity providers' discovery documents, kept per provider.
    let discovery = DiscoveryDocuments()
    /// Hears what an operator should know of (a provider's refused redirect); never secrets.
    let log: @Sendable (String) -> Void
    let changeFeedCursor = ChangeFeedCursor()
    /// First pages of hosted sign-ins, carried by the page instead of the store.
    let sealedFlows: SealedFlows
    let logDeliveryFiles: LogDeliveryFiles

    /// Prepares the service: loads (or creates) the code-hash secret. Signing keys are loaded per
    /// pool on first use. Messages go through a durable queue to `channels`; `log` hears about
    /// failed deliveries (masked recipients, never texts). Pools' Lambda triggers are called
    /// through `functions` (without it, a pool that names a function gets
    /// UnexpectedLambdaException). `snapshots`: where answering reads go (a node's cache of
    /// users); by default the store itself.
    public static func start(
        store: any Store, channels: DeliveryChannels, functions: (any FunctionInvoker)? = nil,
        configuration: CoreConfiguration, time: any TimeSource = SystemTime(), random: any RandomSource = SystemRandom(),
        upstream: any UpstreamHTTP = URLSessionUpstreamHTTP(), snapshots: (any UserSnapshots)? = nil,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> IdentityService {
        let keys = SigningKeyRing(store: store)
        let codeKey = try await store.write { transaction in
            try await transaction.insertServerSecretIfAbsent(named: "code-hash-key", value: random.bytes(32))
        }
        let triggers = Triggers(
            store: store, invoker: functions, region: configuration.region, cacheTTL: configuration.configurationCacheTTL)
        let cache = ConfigurationCache(ttl: configuration.configurationCacheTTL)
        let senders = CustomSenders(triggers: triggers, store: store) { id in
            try await cache.pool(id, now: time.now) { try await store.read { try await $0.pool(id: id) } }
        }
        let logFiles = LogDeliveryFiles(directory: configuration.logDeliveryDirectory, log: log)
        let deliveryQueue = DeliveryQueue(
            store: store, channels: channels, customSenders: senders, time: time, log: log
        ) { message, failure, gaveUp in
            guard let pool = try? await cache.pool(message.poolId, now: time.now, load: {
                try await store.read { try await $0.pool(id: message.poolId) }
            }) else { return }
            logFiles.deliverNotificationFailure(message, failure: failure, gaveUp: gaveUp, pool: pool, at: time.now)
        }
        return IdentityService(
            store: store, time: time, random: random,
            deliveryQueue: deliveryQueue,
            triggers: triggers, cache: cache, configuration: configuration, keys: keys, codeKey: SymmetricKey(data: codeKey),
            logDeliveryFiles: logFiles, upstream: upstream, snapshots: snapshots, log: log)
    }

    /// The same, with one channel for both media.
    public static func start(
        store: any Store, delivery: any MessageDelivery, configuration: CoreConfiguration,
        time: any TimeSource = SystemTime(), random: any RandomSource = SystemRandom()
    ) async throws -> IdentityService {
        try await start(store: store, channels: DeliveryChannels(delivery), configuration: configuration, time: time, random: random)
    }

    init(store: any Store, time: any TimeSource, random: any RandomSource, deliveryQueue: DeliveryQueue,
         triggers: Triggers, cache: ConfigurationCache, configuration: CoreConfiguration, keys: SigningKeyRing,
         codeKey: SymmetricKey, logDeliveryFiles: LogDeliveryFiles, upstream: any UpstreamHTTP = URLSessionUpstreamHTTP(),
         snapshots: (any UserSnapshots)? = nil, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.upstream = upstream
        self.snapshots = snapshots ?? StoreSnapshots(store: store)
        self.log = log
        self.logDeliveryFiles = logDeliveryFiles
        self.store = store
        self.time = time
        self.random = random
        self.deliveryQueue = deliveryQueue
        self.triggers = triggers
        self.configuration = configuration
        self.keys = keys
        self.cache = cache
        self.codes = CodeBook(key: codeKey, random: random)
        self.sealedFlows = SealedFlows(serverKey: codeKey)
        self.tokens = TokenIssuer(keys: keys, issuerBase: configuration.publicBaseURL, random: random)
        self.accessTokens = AccessTokenVerifier(keys: keys, issuerBase: configuration.publicBaseURL)
    }

    /// The JWKS of a pool (its own keys only); nil when there is no such pool.
    public func jwks(poolId: String) async throws -> [String: [[String: String]]]? {
        guard try await cachedPool(poolId) != nil else { return nil }
        return try await keys.jwks(for: poolId, now: time.now)
    }

    /// Reloads the signing keys of the pools this node uses (a safety net behind the change
    /// feed; call periodically).
    public func refreshSigningKeys() async throws { try await keys.refreshLoaded(now: time.now) }

    /// The issuer of a pool's tokens.
    public func issuer(poolId: String) -> String { tokens.issuer(poolId: poolId) }

    /// The base URL clients reach this server at (the OAuth endpoints live under it).
    public var publicBaseURL: String { configuration.publicBaseURL }

    /// Whether a pool exists (for the discovery endpoints).
    public func poolExists(_ poolId: String) async throws -> Bool { try await cachedPool(poolId) != nil }

    /// Whether the store answers.
    public func ping() async throws { try await store.ping() }
}
