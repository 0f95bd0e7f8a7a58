import CognateCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// A configured Cognate server: the HTTP application and what it owns. Made by the composition
/// root (`CognateAssembly`), which opens the database and wires the use cases; this module
/// knows the store only as CognateCore's ``Store``.
public struct CognateServer: Sendable {
    public let configuration: ServerConfiguration
    public let service: IdentityService
    /// The store, for the dev outbox's route.
    public let store: any Store
    /// Where cryptographic operations run (chosen for the database).
    let placement: WorkPlacement
    /// Closes what the composition root opened (the SMTP connection, the database).
    let closing: @Sendable () async -> Void
    let logger: Logger

    /// The built-in TLS certificate, loaded before anything else is opened.
    let certificates: TLSCertificates?

    /// A server over use cases the composition root made; `preflight` chose `configuration`'s
    /// port and loaded `certificates`.
    public init(configuration: ServerConfiguration, service: IdentityService, store: any Store, placement: WorkPlacement,
                certificates: TLSCertificates?, logger: Logger, closing: @escaping @Sendable () async -> Void) {
        self.configuration = configuration
        self.service = service
        self.store = store
        self.placement = placement
        self.certificates = certificates
        self.logger = logger
        self.closing = closing
    }

    /// What must hold before anything is opened, so that a start that fails creates and changes
    /// no database file: an audit log that can be appended to, a TLS certificate that loads, a
    /// free port (port 0 becomes the one chosen, so that the issuer, links and the import URL
    /// name the port served), a log delivery directory. Returns the configuration with its
    /// port, and the certificates. Throws ``PortInUse``, ``TLSUnusable``, other errors for the
    /// rest.
    /// - Parameter listening: false for a process that runs operations on the database without
    ///   serving them (the CLI's `--database` mode): no port, no TLS.
    public static func preflight(_ configuration: ServerConfiguration, listening: Bool) async throws
        -> (ServerConfiguration, TLSCertificates?)
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
            configuration.port = try await Self.freePort(host: configuration.host, trying: configuration.port)
        }
        if let directory = configuration.logDeliveryDirectory {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        return (configuration, certificates)
    }

    /// The router with every route; tests drive it in-process.
    public func makeRouter() -> Router<CognateRequestContext> { makeRoutes().router }

    /// The router, and the API's `POST /` as ``WholeRequests`` answers it: the same middleware
    /// and the same responder.
    func makeRoutes() -> (router: Router<CognateRequestContext>, middleware: RouteMiddleware, api: WholeRequests.API) {
        let router = Router(context: CognateRequestContext.self)
        let auditLog = configuration.auditLogPath.map(AuditLog.init(path:))
        var layers: [RouteMiddleware.Layer] = [
            RequestObservation(logger: logger, auditLog: auditLog, clientAddressHeader: configuration.clientAddressHeader)
        ]
        if configuration.mode == .dev {
            let table = OperationTable.cognate
            layers.append(DevModeGuard(
                publicHost: URL(string: configuration.resolvedPublicBaseURL)?.host?.lowercased(),
                isAdminOperation: { target in
                    table.handler(forTarget: target)?.authorization == .sigV4
                }))
        }
        let cors = CORSPolicy(allowedOrigins: configuration.corsAllowedOrigins)
        layers.append(CORSPreflightMiddleware(policy: cors))
        let middleware = RouteMiddleware(layers: layers)
        middleware.add(to: router)
        let verifier = configuration.mode == .production ? SigV4Verifier(credentials: configuration.adminCredentials, region: configuration.region) : nil
        let api = CognitoAPIResponder(
            service: service, table: .cognate, verifier: verifier, cors: cors, maxBodyBytes: configuration.maxBodyBytes,
            placement: placement, logger: logger, auditLog: auditLog)
        router.post("/") { request, _ in await api.respond(to: request) }
        WellKnownRoutes.add(to: router, service: service, cors: cors)
        OperationalRoutes.add(to: router, service: service, metrics: configuration.metricsRegistry)
        ConfirmationLinkRoutes.add(to: router, service: service)
        AuthEventFeedbackRoutes.add(to: router, service: service)
        ImportRoutes.add(to: router, service: service)
        let secureCookies = configuration.resolvedPublicBaseURL.lowercased().hasPrefix("https:")
        OAuthRoutes.add(to: router, service: service, secureCookies: secureCookies, placement: placement)
        SAMLRoutes.add(to: router, service: service, secureCookies: secureCookies, placement: placement)
        if configuration.mode == .dev { DevRoutes.add(to: router, store: store) }
        return (router, middleware, { request, _, body in await api.respond(to: request, body: body) })
    }

    /// Names of the user-pool operations served.
    public static var supportedOperations: [String] { OperationTable.cognate.operationNames }
    /// Names of the identity-pool operations served.
    public static var supportedIdentityOperations: [String] { OperationTable.cognate.identityOperationNames }

    /// Serves until SIGTERM or SIGINT, then finishes in-flight requests and closes the
    /// database (every committed transaction is already on disk).
    public func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let routes = makeRoutes()
        let responder = routes.router.buildResponder()
        let serverName = "Cognate"
        // The API's requests are read whole and answered on their connection.
        let wholeRequests = WholeRequests(
            middleware: routes.middleware, api: routes.api, maxBodyBytes: configuration.maxBodyBytes, serverName: serverName,
            logger: logger)
        let server = certificates?.serverBuilder(wholeRequests: wholeRequests)
            ?? HTTPServerBuilder.eventLoopBoundHTTP1(wholeRequests: wholeRequests)
        let reloadSignal = Self.reloadOnHangUp(certificates, logger: logger)
        defer { reloadSignal.cancel() }
        let app = Application(
            responder: responder,
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: serverName),
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
            await wholeRequests.inFlight.drained()
            await close()
            throw error
        }
        await wholeRequests.inFlight.drained()
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

        public init(location: String, reason: any Error) {
            self.location = location
            self.reason = reason
        }
    }

    /// Closes what the composition root opened (the SMTP connection, the database).
    public func close() async {
        await closing()
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
