import CognateAssembly
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
        let level = try Self.logLevel(options.logLevel)
        let json = try Self.logsAsJSON(options.logFormat)
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = json
                ? JSONLogHandler(label: label) : TextLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "cognate")
        let server: CognateServer
        do {
            server = try await ServerAssembly.prepare(config, logger: logger)
        } catch let error as CognateServer.DatabaseUnavailable {
            throw options.database.openingFailure(error)
        } catch {
            throw StartupFailure("\(error)")
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

extension Serve {
    static let defaultLogLevel = Logger.Level.info

    /// `log.level` (the flag, COGNATE_LOG_LEVEL, or LOG_LEVEL as before it existed), default info.
    static func logLevel(_ flag: String?) throws -> Logger.Level {
        guard let text = Setting.string(flag, "COGNATE_LOG_LEVEL") ?? Setting.environment["LOG_LEVEL"] else { return defaultLogLevel }
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw ValidationError("\(Setting.origin(of: "COGNATE_LOG_LEVEL", flag: flag) ?? "LOG_LEVEL") must be trace, debug, "
                + "info, notice, warning, error or critical, not \(text).")
        }
        return level
    }

    /// `log.format`: text (default) or json.
    static func logsAsJSON(_ flag: String?) throws -> Bool {
        switch Setting.string(flag, "COGNATE_LOG_FORMAT") ?? "text" {
        case "text": return false
        case "json": return true
        case let other:
            throw ValidationError("\(Setting.origin(of: "COGNATE_LOG_FORMAT", flag: flag) ?? "log.format") must be text or json, not \(other).")
        }
    }
}

/// A failure to start or to read or write a file: printed as "Error: …", exit status 1 (not a usage error).
struct StartupFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
