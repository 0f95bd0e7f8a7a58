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
        var configured = try options.configuration()
        configured.metricsRegistry = ServerMetrics.bootstrap()
        let config = configured
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
        do {
            try await server.run { port in
                // Unbuffered, so scripts reading a pipe see the banner at once.
                FileHandle.standardOutput.write(Data(config.banner(port: port).utf8))
            }
        } catch let error as CognateServer.PortInUse {
            throw StartupFailure(error.description)
        }
    }
}

/// A failure to start or to read or write a file: printed as "Error: …", exit status 1 (not a usage error).
struct StartupFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
