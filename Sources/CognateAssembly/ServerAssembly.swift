import CognateCore
import CognateServer
import CognateStorage
import Foundation
import Logging
import NIOSSL

/// The composition root: the one place that knows every part — the configuration, the
/// database (CognateStorage), the delivery channels, the webhook functions and the use cases
/// (CognateCore) — and puts a ``CognateServer`` together from them. The command-line tool and
/// the tests that run a whole server in process start here.
public enum ServerAssembly {
    /// Checks what can be checked without the database (``CognateServer/preflight(_:listening:)``),
    /// opens (and migrates) the database, and wires the use cases.
    ///
    /// - Parameter listening: false for a process that runs operations on the database without
    ///   serving them (the CLI's `--database` mode): no port, no TLS, no cache of users (nothing
    ///   asks for GetUser), and the database must exist
    ///   (only a server, or `cognate migrate`, creates one).
    /// - Throws: ``CognateServer/DatabaseUnavailable`` when the database cannot be opened, and
    ///   what `preflight` and the delivery settings throw.
    public static func prepare(_ configuration: ServerConfiguration, logger: Logger, listening: Bool = true) async throws
        -> CognateServer
    {
        let (configuration, certificates) = try await CognateServer.preflight(configuration, listening: listening)
        let store: SQLStore
        do {
            store = try await SQLStore.open(
                configuration.database, options: configuration.databaseOptions, logger: logger, creating: listening,
                cachingUsers: listening)
        } catch {
            throw CognateServer.DatabaseUnavailable(location: SQLStore.redacted(configuration.database), reason: error)
        }
        do {
            let outbox = OutboxDelivery(store: store, keepsSecrets: configuration.mode == .dev) { [logger] line in
                logger.info("\(line)")
            }
            let (channels, smtp) = try configuration.delivery.channels(outbox: outbox, logger: logger)
            // Function webhooks are signed with the webhook secret, or one the database keeps.
            var functionSecret = configuration.delivery.webhookSecret ?? ""
            if functionSecret.isEmpty { functionSecret = try await FunctionBindings.signingSecret(in: store) }
            let warn: @Sendable (String) -> Void = { [logger] line in logger.warning("\(line)") }
            let metadataDocuments = try PublicDocumentFetcher(
                addresses: PublicAddresses(exceptions: configuration.clientMetadataPrivateNetworks),
                additionalTrustRoots: try configuration.clientMetadataCAFile.map(NIOSSLCertificate.fromPEMFile) ?? [])
            let service = try await IdentityService.start(
                store: store, channels: channels, functions: WebhookFunctionInvoker(secret: functionSecret, log: warn),
                configuration: configuration.coreConfiguration, snapshots: store.snapshots,
                metadataDocuments: metadataDocuments, log: warn)
            return CognateServer(
                configuration: configuration, service: service, store: store,
                placement: WorkPlacement(leavesTheLoop: store.flavor == .sqlite), certificates: certificates, logger: logger,
                closing: {
                    await smtp?.shutdown()
                    await store.close()
                })
        } catch {
            await store.close()
            throw error
        }
    }

    /// The operations of the configured database, which must exist, in this process; no
    /// listener (the operator CLI's `--database` mode).
    public static func directOperations(_ configuration: ServerConfiguration, logger: Logger) async throws
        -> DirectOperations
    {
        DirectOperations(server: try await prepare(configuration, logger: logger, listening: false))
    }
}
