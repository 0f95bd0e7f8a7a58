import ArgumentParser
import CognateServer
import CognateStorage
import Foundation
import Logging

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the server (dev mode on 127.0.0.1:9229 with ./.cognate/cognate.sqlite by default).")

    @OptionGroup var options: ServerOptions

    func run() async throws {
        let config = try options.configuration()
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info
            return handler
        }
        let logger = Logger(label: "cognate")
        let server: CognateServer
        do {
            server = try await CognateServer.prepare(config, logger: logger)
        } catch {
            throw StartupFailure("Cannot open the database \(SQLStore.redacted(config.database)): \(error)")
        }
        try await server.run { port in
            Self.printBanner(config, port: port)
        }
    }

    static func printBanner(_ config: ServerConfiguration, port: Int) {
        var shown = config
        shown.port = port
        let endpoint = shown.resolvedPublicBaseURL
        var lines = [
            "Cognate is listening on http://\(config.host):\(port) (\(config.mode.rawValue) mode)",
            "Database: \(config.database)",
        ]
        if config.mode == .dev {
            lines += [
                "Dev mode: admin operations accept any AWS credentials; messages go to the outbox",
                "  (\(endpoint)/_dev/outbox, or `cognate outbox`).",
                "",
                "Try it:",
                "  export AWS_ACCESS_KEY_ID=dev AWS_SECRET_ACCESS_KEY=dev AWS_DEFAULT_REGION=\(config.region)",
                "  aws cognito-idp create-user-pool --pool-name demo --endpoint-url \(endpoint)",
            ]
        } else {
            lines.append("Production mode: admin operations require SigV4 with \(config.adminCredentials.count) configured key(s).")
        }
        // Unbuffered, so scripts reading a pipe see the banner at once.
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}

/// A failure to start: printed as "Error: …", exit status 1 (not a usage error).
struct StartupFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
