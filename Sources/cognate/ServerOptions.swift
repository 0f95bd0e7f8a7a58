import ArgumentParser
import CognateServer
import Foundation

/// Options shared by the commands that open the database; each falls back to an environment
/// variable, then to the zero-configuration default.
struct DatabaseOption: ParsableArguments {
    @Option(name: .long, help: "SQLite file path or postgres:// URL (env COGNATE_DATABASE; default ./.cognate/cognate.sqlite).")
    var database: String?

    var resolved: String {
        database ?? ProcessInfo.processInfo.environment["COGNATE_DATABASE"] ?? ServerConfiguration().database
    }
}

struct ServerOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOption

    @Option(name: .long, help: "Address to listen on (env COGNATE_HOST; default 127.0.0.1).")
    var host: String?

    @Option(name: .long, help: "Port to listen on (env COGNATE_PORT; default 9229; 0 picks a free port).")
    var port: Int?

    @Option(name: .long, help: "Base URL clients use; token issuer is <url>/<poolId> (env COGNATE_PUBLIC_URL).")
    var publicURL: String?

    @Option(name: .long, help: "dev or production (env COGNATE_MODE; default dev).")
    var mode: String?

    @Option(name: .long, parsing: .singleValue,
            help: "Admin access key as AKID:SECRET, repeatable (env COGNATE_ADMIN_CREDENTIALS, comma-separated).")
    var adminCredentials: [String] = []

    @Option(name: .long, help: "Region used in pool ids and ARNs (env COGNATE_REGION; default us-east-1).")
    var region: String?

    func configuration() throws -> ServerConfiguration {
        let env = ProcessInfo.processInfo.environment
        var config = ServerConfiguration()
        config.database = database.resolved
        config.host = host ?? env["COGNATE_HOST"] ?? config.host
        if let port = try port ?? env["COGNATE_PORT"].map({ text in
            guard let value = Int(text) else { throw ValidationError("COGNATE_PORT must be a number: \(text)") }
            return value
        }) { config.port = port }
        config.publicBaseURL = publicURL ?? env["COGNATE_PUBLIC_URL"]
        let modeText = mode ?? env["COGNATE_MODE"] ?? "dev"
        guard let mode = ServerConfiguration.Mode(rawValue: modeText) else {
            throw ValidationError("Mode must be dev or production, not \(modeText).")
        }
        config.mode = mode
        config.region = region ?? env["COGNATE_REGION"] ?? config.region
        let pairs = adminCredentials.isEmpty
            ? (env["COGNATE_ADMIN_CREDENTIALS"] ?? "").split(separator: ",").map(String.init) : adminCredentials
        for pair in pairs where !pair.isEmpty {
            let parts = pair.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ValidationError("Admin credentials must look like AKID:SECRET.")
            }
            config.adminCredentials[parts[0]] = parts[1]
        }
        let problems = config.problems()
        guard problems.isEmpty else { throw ValidationError(problems.joined(separator: "\n")) }
        return config
    }
}
