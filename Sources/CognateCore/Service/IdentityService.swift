import CognateProtocol
import Crypto
import Foundation

/// The use cases of Cognate, one capability per type, wired together once: each operation of
/// the API is a method of one of them, taking and returning the wire types of CognateProtocol.
/// The server decodes, authenticates admin calls and calls these; nothing here knows about HTTP
/// or SQL.
///
/// Each capability declares what it uses in its own type (its initializer is the list), and
/// the shared helpers are small types of their own (``PoolDirectory``, ``UserDirectory``,
/// ``Messenger``, ``TokenFamilies`` …). `start` is the one place they are made.
public struct IdentityService: Sendable {
    public let pools: PoolAdministration
    public let clients: ClientAdministration
    public let managedLogin: ManagedLogin
    public let registration: Registration
    public let customRegistration: CustomRegistration
    public let account: Account
    public let userAdministration: UserAdministration
    public let userImport: UserImport
    public let devices: DeviceManagement
    public let mfa: MfaSettings
    public let signIn: SignIn
    public let passkeys: Passkeys
    public let sessions: Sessions
    public let userSessions: UserSessions
    public let clientMetadataDocuments: ClientMetadataDocuments
    public let clientTokens: ClientTokens
    public let disasterRecovery: DisasterRecovery
    public let tokenExchange: TokenExchange
    public let oauth: OAuth
    public let federation: Federation
    public let threatProtection: ThreatProtectionAdministration
    public let identityPools: IdentityPoolAdministration
    public let identities: FederatedIdentities
    public let housekeeping: Housekeeping

    /// Prepares the use cases: loads (or creates) the code-hash secret. Signing keys are loaded
    /// per pool on first use. Messages go through a durable queue to `channels`; `log` hears
    /// about failed deliveries (masked recipients, never texts) and what an operator should know
    /// of (a provider's refused redirect). Pools' Lambda triggers are called through `functions`
    /// (without it, a pool that names a function gets UnexpectedLambdaException). `snapshots`:
    /// where answering reads go (a node's cache of users); by default the store itself.
    /// `metadataDocuments`: how client ID metadata documents are fetched (URLs anyone may name;
    /// by default none is).
    public static func start(
        store: any Store, channels: DeliveryChannels, functions: (any FunctionInvoker)? = nil,
        configuration: CoreConfiguration, time: any TimeSource = SystemTime(), random: any RandomSource = SystemRandom(),
        upstream: any UpstreamHTTP = URLSessionUpstreamHTTP(), snapshots: (any UserSnapshots)? = nil,
        metadataDocuments: any MetadataDocumentFetcher = NoMetadataDocumentFetcher(),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> IdentityService {
        let codeKey = try await store.write { transaction in
            try await transaction.insertServerSecretIfAbsent(named: "code-hash-key", value: random.bytes(32))
        }
        return IdentityService(
            store: store, channels: channels, functions: functions, configuration: configuration, time: time,
            random: random, upstream: upstream, snapshots: snapshots ?? StoreSnapshots(store: store),
            metadataDocuments: metadataDocuments, codeKey: SymmetricKey(data: codeKey), log: log)
    }

    /// The same, with one channel for both media.
    public static func start(
        store: any Store, delivery: any MessageDelivery, configuration: CoreConfiguration,
        time: any TimeSource = SystemTime(), random: any RandomSource = SystemRandom()
    ) async throws -> IdentityService {
        try await start(store: store, channels: DeliveryChannels(delivery), configuration: configuration, time: time, random: random)
    }

    // swiftlint:disable:next function_body_length
    init(store: any Store, channels: DeliveryChannels, functions: (any FunctionInvoker)?, configuration: CoreConfiguration,
         time: any TimeSource, random: any RandomSource, upstream: any UpstreamHTTP, snapshots: any UserSnapshots,
         metadataDocuments: any MetadataDocumentFetcher, codeKey: SymmetricKey, log: @escaping @Sendable (String) -> Void) {
        // What the capabilities share.
        let keys = SigningKeyRing(store: store)
        let cache = ConfigurationCache(ttl: configuration.configurationCacheTTL)
        let codes = CodeBook(key: codeKey, random: random)
        let tokens = TokenIssuer(keys: keys, issuerBase: configuration.publicBaseURL, random: random)
        let accessTokens = AccessTokenVerifier(keys: keys, issuerBase: configuration.publicBaseURL)
        let triggers = Triggers(
            store: store, invoker: functions, region: configuration.region, cacheTTL: configuration.configurationCacheTTL)
        let directory = PoolDirectory(store: store, time: time, cache: cache)
        let senders = CustomSenders(triggers: triggers, store: store) { id in try await directory.cachedPool(id) }
        let logFiles = LogDeliveryFiles(directory: configuration.logDeliveryDirectory, log: log)
        let deliveryQueue = DeliveryQueue(
            store: store, channels: channels, customSenders: senders, time: time, log: log
        ) { message, failure, gaveUp in
            guard let pool = try? await directory.cachedPool(message.poolId) else { return }
            logFiles.deliverNotificationFailure(message, failure: failure, gaveUp: gaveUp, pool: pool, at: time.now)
        }
        let sealedFlows = SealedFlows(serverKey: codeKey)
        let discovery = DiscoveryDocuments()

        // The helpers, each taking only what it uses.
        let allowances = RequestAllowances(store: store, time: time, configuration: configuration)
        let users = UserDirectory(time: time)
        let decoys = Decoys(codes: codes)
        let authSessions = AuthSessionBook(time: time, random: random)
        let messenger = Messenger(
            time: time, configuration: configuration, triggers: triggers, deliveryQueue: deliveryQueue, codes: codes,
            allowances: allowances)
        let triggerCalls = TriggerCalls(time: time, triggers: triggers)
        let authEvents = AuthEventRecorder(
            time: time, random: random, configuration: configuration, logDeliveryFiles: logFiles)
        let sessionTracking = SessionTracking(store: store, time: time, codes: codes)
        let tokenFamilies = TokenFamilies(
            store: store, time: time, random: random, tokens: tokens, triggerCalls: triggerCalls, messenger: messenger,
            sessionTracking: sessionTracking)
        let passwords = Passwords(time: time, random: random, authEvents: authEvents, tokenFamilies: tokenFamilies)
        let migration = UserMigration(
            store: store, time: time, random: random, triggers: triggers, users: users, passwords: passwords)
        let attributeEditor = AttributeEditor(time: time, codes: codes, users: users, messenger: messenger)
        let throttle = SignInThrottle(store: store, time: time)
        let authenticator = AccessTokenAuthenticator(
            time: time, accessTokens: accessTokens, snapshots: snapshots, directory: directory, store: store)
        let mfaView = UserMfaView(store: store, snapshots: snapshots)
        let deviceTrust = DeviceTrust(time: time, random: random, configuration: configuration, authSessions: authSessions)
        let challenges = SecondFactorChallenges(
            random: random, codes: codes, authSessions: authSessions, allowances: allowances,
            deliveryQueue: deliveryQueue)
        let relyingParties = PasskeyRelyingParties(store: store, configuration: configuration)
        let passkeyAssertions = PasskeyAssertions(
            time: time, random: random, decoys: decoys, authSessions: authSessions, relyingParties: relyingParties)
        let signUpSessions = SignUpSessions(authSessions: authSessions)
        let completion = SignInCompletion(
            store: store, time: time, users: users, authSessions: authSessions, throttle: throttle, authEvents: authEvents,
            tokenFamilies: tokenFamilies, deviceTrust: deviceTrust, challenges: challenges, configuration: configuration)

        // The capabilities.
        pools = PoolAdministration(
            store: store, time: time, random: random, configuration: configuration, cache: cache, keys: keys,
            directory: directory)
        clients = ClientAdministration(
            store: store, time: time, random: random, configuration: configuration, cache: cache, directory: directory)
        managedLogin = ManagedLogin(
            store: store, time: time, random: random, configuration: configuration, directory: directory)
        registration = Registration(
            store: store, time: time, random: random, configuration: configuration, codes: codes, directory: directory,
            users: users, allowances: allowances, decoys: decoys, messenger: messenger, triggerCalls: triggerCalls,
            migration: migration, passwords: passwords, authEvents: authEvents, triggers: triggers,
            signUpSessions: signUpSessions)
        customRegistration = CustomRegistration(
            store: store, time: time, random: random, directory: directory, users: users, allowances: allowances,
            authSessions: authSessions, authEvents: authEvents,
            function: CustomRegistrationFunction(time: time, triggers: triggers), completion: completion,
            tokenFamilies: tokenFamilies)
        account = Account(
            store: store, time: time, configuration: configuration, codes: codes, users: users,
            allowances: allowances, messenger: messenger, attributeEditor: attributeEditor, authenticator: authenticator,
            passwords: passwords, throttle: throttle, authEvents: authEvents, mfaView: mfaView)
        userAdministration = UserAdministration(
            store: store, time: time, random: random, deliveryQueue: deliveryQueue, directory: directory, users: users, messenger: messenger,
            triggerCalls: triggerCalls, passwords: passwords, attributeEditor: attributeEditor, tokenFamilies: tokenFamilies,
            mfaView: mfaView)
        userImport = UserImport(
            store: store, time: time, random: random, configuration: configuration, directory: directory, users: users)
        devices = DeviceManagement(
            store: store, time: time, directory: directory, users: users, authenticator: authenticator,
            deviceTrust: deviceTrust, deliveryQueue: deliveryQueue)
        mfa = MfaSettings(
            store: store, time: time, random: random, codes: codes, directory: directory, users: users,
            authSessions: authSessions, authenticator: authenticator, mfaView: mfaView)
        let choice = ChoiceSignIn(
            store: store, users: users, decoys: decoys, authSessions: authSessions, triggerCalls: triggerCalls,
            challenges: challenges, completion: completion, tokenFamilies: tokenFamilies, passkeys: passkeyAssertions,
            signUpSessions: signUpSessions)
        signIn = SignIn(
            store: store, time: time, random: random, codes: codes, triggers: triggers, directory: directory, users: users,
            decoys: decoys, authSessions: authSessions, messenger: messenger, triggerCalls: triggerCalls, migration: migration,
            passwords: passwords, attributeEditor: attributeEditor, throttle: throttle, tokenFamilies: tokenFamilies,
            deviceTrust: deviceTrust, completion: completion, challenges: challenges, choice: choice)
        passkeys = Passkeys(
            store: store, time: time, random: random, configuration: configuration, authenticator: authenticator,
            authSessions: authSessions, relyingParties: relyingParties)
        sessions = Sessions(
            store: store, time: time, random: random, directory: directory, authenticator: authenticator,
            tokenFamilies: tokenFamilies)
        clientTokens = ClientTokens(store: store, time: time, directory: directory, tokens: tokens)
        disasterRecovery = DisasterRecovery(configuration: configuration, directory: directory)
        tokenExchange = TokenExchange(
            store: store, time: time, directory: directory,
            exchangedTokens: ExchangedTokens(
                time: time, keys: keys, issuerBase: configuration.publicBaseURL, directory: directory,
                authenticator: authenticator),
            tokens: tokens)
        userSessions = UserSessions(
            store: store, time: time, directory: directory, users: users, authenticator: authenticator,
            sessionTracking: sessionTracking)
        clientMetadataDocuments = ClientMetadataDocuments(store: store, time: time, random: random, directory: directory)
        let passkeyAddition = HostedPasskeyAddition(
            store: store, time: time, passkeys: passkeys, authenticator: authenticator,
            recentSignIns: RecentSignIns(serverKey: codeKey))
        oauth = OAuth(
            store: store, time: time, random: random, cache: cache, tokens: tokens,
            accessTokens: accessTokens, sealedFlows: sealedFlows, snapshots: snapshots, directory: directory,
            allowances: allowances, authSessions: authSessions, tokenFamilies: tokenFamilies, signIn: signIn,
            registration: registration, mfaSettings: mfa, sessions: sessions, choice: HostedChoiceSignIn(signIn: signIn),
            passkeyAddition: passkeyAddition,
            hostedSessions: HostedSessions(
                store: store, time: time, serverKey: codeKey, authenticator: authenticator, completion: completion,
                tokenFamilies: tokenFamilies),
            metadataClients: MetadataDocumentClients(
                store: store, time: time, directory: directory, fetcher: metadataDocuments, log: log))
        federation = Federation(
            store: store, time: time, random: random, configuration: configuration, cache: cache, keys: keys,
            upstream: upstream, discovery: discovery, log: log, directory: directory, users: users, allowances: allowances,
            authSessions: authSessions, tokenFamilies: tokenFamilies, completion: completion, oauth: oauth,
            triggerCalls: triggerCalls)
        threatProtection = ThreatProtectionAdministration(
            store: store, time: time, configuration: configuration, directory: directory,
            users: users)
        let identityPoolLookup = IdentityPoolLookup(store: store, configuration: configuration)
        identityPools = IdentityPoolAdministration(
            store: store, time: time, random: random, configuration: configuration, lookup: identityPoolLookup)
        let openIdTokens = OpenIdTokens(
            keys: keys, time: time, lookup: identityPoolLookup,
            issuer: configuration.publicBaseURL + "/" + SigningKeyRing.identityKeySet)
        let providerURLs = configuration.identityPools.providerURLs
        let loginVerifier = LoginVerifier(
            userPools: UserPoolLogins(store: store, time: time, keys: keys, issuerBase: configuration.publicBaseURL),
            openIdConnect: OpenIdConnectLogins(
                time: time, keySets: ProviderKeySets(upstream: upstream), providerURLs: providerURLs, log: log),
            inspection: TokenInspection(upstream: upstream, providerURLs: providerURLs, log: log),
            openIdTokens: openIdTokens)
        identities = FederatedIdentities(
            store: store, time: time, configuration: configuration, lookup: identityPoolLookup, logins: loginVerifier,
            links: IdentityLinks(store: store, time: time, random: random), openIdTokens: openIdTokens,
            sts: STSCredentials(upstream: upstream, endpoint: configuration.identityPools.stsEndpoint, log: log))
        housekeeping = Housekeeping(
            store: store, time: time, cache: cache, keys: keys, deliveryQueue: deliveryQueue,
            changeFeedCursor: ChangeFeedCursor(), accessTokens: accessTokens, triggers: triggers)
    }
}
