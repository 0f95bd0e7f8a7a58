import CognateCore
import CognateStorage
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// A configured Cognate server: the HTTP application and what it owns.
public struct CognateServer: Sendable {
    public let configuration: ServerConfiguration
    public let service: IdentityService
    public let store: SQLStore
    /// The SMTP connection, closed when the server stops.
    let smtp: SMTPDelivery?
    let logger: Logger

    /// The built-in TLS certificate, loaded before anything else is opened.
    let certificates: TLSCertificates?

    /// Opens the database (migrating it) and prepares the use cases.
    ///
    /// Contract: everything that can be refused without the database is refused before it is
    /// opened (an audit log that cannot be appended to, a TLS certificate that cannot be loaded,
    /// a port in use, a log delivery directory that cannot be made), so that a start that fails
    /// creates and changes no database file. Throws ``DatabaseUnavailable`` when the database
    /// cannot be opened, ``PortInUse``, ``TLSUnusable``, other errors for the rest.
    /// - Parameter listening: false for a process that runs operations on the database without
    ///   serving them (the CLI's `--database` mode): no port, no TLS, and the database must exist
    ///   (`SQLStore.open(…, creating: false)`): only a server, or `cognate migrate`, creates one.
    public static func prepare(_ configuration: ServerConfiguration, logger: Logger, listening: Bool = true) async throws
        -> CognateServer
    {
        var configuration = configuration
        if let path = configuration.auditLogPath { try AuditLog(path: path).checkWritable() }
        var certificates: TLSCertificates?
        if listening {
            if let certificate = configuration.tlsCertificatePath, let key = configuration.tlsKeyPath {
                do {
                    certificates = try TLSCertificates(certificatePath: certificate, keyPath: key)
                } catch {
                    throw TLSUnusable(certificatePath: certificate, keyPath: key, reason: error)
                }
            }
            // Chosen now for port 0, so that the issuer, links and the import URL name the port served.
            configuration.port = try await Self.freePort(host: configuration.host, trying: configuration.port)
        }
        if let directory = configuration.logDeliveryDirectory {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let store: SQLStore
        do {
            store = try await SQLStore.open(
                configuration.database, options: configuration.databaseOptions, logger: logger, creating: listening,
                cachingUsers: true)
        } catch {
            throw DatabaseUnavailable(location: SQLStore.redacted(configuration.database), reason: error)
        }
        SharedPool.configure(for: store.flavor)
        let outbox = OutboxDelivery(store: store, keepsSecrets: configuration.mode == .dev) { [logger] line in
            logger.info("\(line)")
        }
        let (channels, smtp) = try configuration.delivery.channels(outbox: outbox, logger: logger)
        // Function webhooks are signed with the webhook secret, or one the database keeps.
        var functionSecret = configuration.delivery.webhookSecret ?? ""
        if functionSecret.isEmpty { functionSecret = try await FunctionBindings.signingSecret(in: store) }
        var core = CoreConfiguration(
            region: configuration.region, publicBaseURL: configuration.resolvedPublicBaseURL,
            configurationCacheTTL: configuration.configurationCacheSeconds, rateLimits: configuration.rateLimits)
        core.breachedPasswords = configuration.breachedPasswords
        core.logDeliveryDirectory = configuration.logDeliveryDirectory
        let service = try await IdentityService.start(
            store: store, channels: channels,
            functions: WebhookFunctionInvoker(secret: functionSecret, log: { [logger] line in logger.warning("\(line)") }),
            configuration: core, snapshots: store.snapshots,
            log: { [logger] line in logger.warning("\(line)") })
        return CognateServer(
            configuration: configuration, service: service, store: store, smtp: smtp, logger: logger, certificates: certificates)
    }

    /// The router with every route; tests drive it in-process.
    public func makeRouter() -> Router<CognateRequestContext> {
        let router = Router(context: CognateRequestContext.self)
        let auditLog = configuration.auditLogPath.map(AuditLog.init(path:))
        router.add(middleware: ClientAddressMiddleware(header: configuration.clientAddressHeader))
        router.add(middleware: RequestObservation(logger: logger, auditLog: auditLog))
        if configuration.mode == .dev {
            let table = OperationTable.cognate
            router.add(middleware: DevModeGuard(
                publicHost: URL(string: configuration.resolvedPublicBaseURL)?.host?.lowercased(),
                isAdminOperation: { target in
                    CognitoAPIResponder.operationName(target).flatMap { table.handlers[$0] }?.authorization == .sigV4
                }))
        }
        let cors = CORSPolicy(allowedOrigins: configuration.corsAllowedOrigins)
        router.add(middleware: CORSPreflightMiddleware(policy: cors))
        let verifier = configuration.mode == .production ? SigV4Verifier(credentials: configuration.adminCredentials, region: configuration.region) : nil
        let api = CognitoAPIResponder(
            service: service, table: .cognate, verifier: verifier, cors: cors, maxBodyBytes: configuration.maxBodyBytes,
            logger: logger, auditLog: auditLog)
        router.post("/") { request, _ in await api.respond(to: request) }
        WellKnownRoutes.add(to: router, service: service, cors: cors)
        OperationalRoutes.add(to: router, service: service, metrics: configuration.metricsRegistry)
        ConfirmationLinkRoutes.add(to: router, service: service)
        AuthEventFeedbackRoutes.add(to: router, service: service)
        ImportRoutes.add(to: router, service: service)
        OAuthRoutes.add(
            to: router, service: service, secureCookies: configuration.resolvedPublicBaseURL.lowercased().hasPrefix("https:"))
        if configuration.mode == .dev { DevRoutes.add(to: router, store: store) }
        return router
    }

    /// Names of the operations served.
    public static var supportedOperations: [String] { OperationTable.cognate.operationNames }

    /// Serves until SIGTERM or SIGINT, then finishes in-flight requests and closes the
    /// database (every committed transaction is already on disk).
    public func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let server = certificates?.serverBuilder() ?? HTTPServerBuilder.eventLoopBoundHTTP1()
        let reloadSignal = Self.reloadOnHangUp(certificates, logger: logger)
        defer { reloadSignal.cancel() }
        let app = Application(
            router: makeRouter(),
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Cognate"),
            services: [
                Periodic("signing key refresh", every: configuration.keyRefreshSeconds, logger: logger) {
                    try await service.housekeeping.refreshSigningKeys()
                },
                Periodic("expired record sweep", every: 60, logger: logger) { try await service.housekeeping.sweepExpired() },
                Periodic("change feed", every: 1, logger: logger) { try await service.housekeeping.applyChanges() },
                Periodic("message delivery", every: 1, logger: logger) { try await service.housekeeping.retryDeliveries() },
            ],
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
        do {
            try await app.runService()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            await close()
            throw PortInUse(host: configuration.host, port: configuration.port)
        } catch {
            await close()
            throw error
        }
        await close()
    }

    /// Reloads the TLS certificate on SIGHUP (certificate renewals without a restart). Without
    /// built-in TLS there is nothing to reload, and the signal is only logged: its default
    /// action would end the process (`systemctl reload`, a log rotation's hook), and systemd's
    /// `Restart=on-failure` does not restart a process ended by SIGHUP.
    static func reloadOnHangUp(_ certificates: TLSCertificates?, logger: Logger) -> any DispatchSourceSignal {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP)
        source.setEventHandler {
            guard let certificates else {
                logger.info("SIGHUP: nothing to reload (no built-in TLS certificate)")
                return
            }
            do {
                try certificates.reload()
                logger.info("TLS certificate reloaded from \(certificates.certificatePath)")
            } catch {
                logger.error("TLS certificate reload failed, keeping the previous one: \(error)")
            }
        }
        source.resume()
        return source
    }

    /// `port` if it is free on `host` now, or for port 0 a port free now (another process could
    /// take it before the server binds it; the bind would then fail, never serve on another
    /// port than the one announced). Throws ``PortInUse`` when another process listens there.
    static func freePort(host: String, trying port: Int = 0) async throws -> Int {
        do {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1).bind(host: host, port: port).get()
            let bound = channel.localAddress?.port ?? port
            try await channel.close()
            return bound
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw PortInUse(host: host, port: port)
        }
    }

    /// The TLS certificate chain or key cannot be loaded.
    public struct TLSUnusable: Error, CustomStringConvertible {
        public let certificatePath: String
        public let keyPath: String
        public let reason: any Error
        public var description: String {
            "Cannot load the TLS certificate \(certificatePath) with the key \(keyPath) (PEM files, the key matching the "
                + "certificate): \(reason)."
        }
    }

    /// The database named in the configuration cannot be opened (unreachable, refused, a
    /// schema newer than this binary).
    public struct DatabaseUnavailable: Error, CustomStringConvertible {
        public let location: String
        public let reason: any Error
        public var description: String { "Cannot open the database \(location): \(reason)" }
    }

    /// Closes the SMTP connection and the database.
    func close() async {
        await smtp?.shutdown()
        await store.close()
    }

    /// Another process listens on the configured address.
    public struct PortInUse: Error, CustomStringConvertible {
        public let host: String
        public let port: Int

        public var description: String {
            "Port \(port) on \(host) is already in use (is another cognate serve running?). "
                + "Choose another with --port or COGNATE_PORT."
        }
    }
}
