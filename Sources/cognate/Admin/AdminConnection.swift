import CognateAssembly
import ArgumentParser
import CognateProtocol
import CognateServer
import CognateStorage
import Foundation
import Logging

/// How the admin commands reach a running server: its endpoint, the region the server was
/// started with (signatures are scoped to it) and an access key of `--admin-credentials`.
///
/// Contract: every setting falls back to the environment, then to the default of a local dev
/// server. The secret never comes from the command line (other users can see it there): it is
/// read from AWS_SECRET_ACCESS_KEY or from `--credentials-file`. Without credentials requests go
/// unsigned, which a dev mode server accepts and a production server refuses.
///
/// With `--database` (a flag only: COGNATE_DATABASE alone never switches it on, since servers
/// set it too) the operations run in this process on that database instead, for when no server
/// runs; the other settings (region, public URL, delivery) come from the environment and the
/// configuration file as `serve` reads them.
struct AdminConnection: ParsableArguments {
    @Option(name: .long, help: "The server's URL (env COGNATE_ENDPOINT; default http://127.0.0.1:9229).")
    var endpoint: String?

    @Option(name: .long, help: "The server's region, which signatures are scoped to (env COGNATE_REGION, then AWS_REGION; default us-east-1).")
    var region: String?

    @Option(name: .long, help: "A file holding AKID:SECRET, one of the server's --admin-credentials (env COGNATE_CREDENTIALS_FILE; default: env AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY).")
    var credentialsFile: String?

    @Option(name: .long, help: "Work on this database (SQLite path or postgres:// URL) in this process instead of through a server: for when no server runs. Settings as `serve` reads them (env, COGNATE_CONFIG).")
    var database: String?

    var resolvedEndpoint: String { Setting.string(endpoint, "COGNATE_ENDPOINT") ?? "http://127.0.0.1:9229" }
    var resolvedRegion: String { Setting.string(region, "COGNATE_REGION") ?? Setting.environment["AWS_REGION"] ?? "us-east-1" }

    /// The signer for the configured access key, or nil when none is configured.
    func signer() throws -> SigV4Signer? {
        let region = resolvedRegion
        if let file = Setting.string(credentialsFile, "COGNATE_CREDENTIALS_FILE") {
            let text = try Setting.secret(
                file: file, "", flag: credentialsFile != nil ? "--credentials-file" : "COGNATE_CREDENTIALS_FILE")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ValidationError("The credentials file \(file) must hold AKID:SECRET.")
            }
            return SigV4Signer(accessKeyId: parts[0], secretAccessKey: parts[1], region: region)
        }
        guard let key = Setting.environment["AWS_ACCESS_KEY_ID"], !key.isEmpty else { return nil }
        guard let secret = Setting.environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty else {
            throw ValidationError("AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not.")
        }
        return SigV4Signer(accessKeyId: key, secretAccessKey: secret, region: region)
    }

    func validate() throws {
        if database != nil && endpoint != nil { throw ValidationError("--database and --endpoint exclude each other.") }
    }

    /// Runs `body` with a client of the server, or of the database with `--database` (closed afterwards).
    func withClient<Result>(_ body: (AdminClient) async throws -> Result) async throws -> Result {
        try await using(try await client(), close: { await $0.close() }, body)
    }

    private func client() async throws -> AdminClient {
        if let database {
            // Parsing validates too: COGNATE_CONFIG's file is loaded like `serve` loads it.
            let options = try ServerOptions.parse(["--database", database])
            let configuration = try options.configuration(listening: false)
            var logger = Logger(label: "cognate")
            logger.logLevel = .warning
            do {
                return AdminClient(transport: .database(try await ServerAssembly.directOperations(configuration, logger: logger)))
            } catch let error as CognateServer.DatabaseUnavailable {
                throw options.database.openingFailure(error)
            }
        }
        let text = resolvedEndpoint
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil
        else { throw ValidationError("The endpoint must be an http:// or https:// URL, not \(text).") }
        return AdminClient(transport: .server(endpoint: url, signer: try signer()))
    }
}
