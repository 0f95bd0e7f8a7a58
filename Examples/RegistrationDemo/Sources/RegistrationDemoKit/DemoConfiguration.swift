import CognateAuth
import Foundation

/// The demo's settings, from flags or the environment (flags win).
///
/// | flag | environment | default |
/// | --- | --- | --- |
/// | `--endpoint` | `COGNATE_ENDPOINT` | `http://127.0.0.1:9229` |
/// | `--pool-id` | `COGNATE_POOL_ID` | (required) |
/// | `--client-id` | `COGNATE_CLIENT_ID` | (required) |
/// | `--client-secret` | `COGNATE_CLIENT_SECRET` | none |
/// | `--store` | `COGNATE_DEMO_STORE` | `~/.cognate-demo` |
/// | `--profile` | `COGNATE_DEMO_PROFILE` | `default` |
/// | `--passwordless` (no value) | `COGNATE_DEMO_PASSWORDLESS=1` | off |
public struct DemoConfiguration: Sendable, Equatable {
    public var endpoint: URL
    public var userPoolId: String
    public var clientId: String
    public var clientSecret: String?
    public var storeDirectory: URL
    public var profile: String
    /// Sign up with the email only, and sign in with emailed codes.
    public var passwordless: Bool = false

    public struct UsageError: Error, CustomStringConvertible {
        public var description: String
    }

    public static let usage = """
        Usage: RegistrationDemo --pool-id <id> --client-id <id> [--endpoint <url>] [--client-secret <secret>]
                                [--store <directory>] [--profile <name>] [--passwordless]
        (or COGNATE_POOL_ID, COGNATE_CLIENT_ID, COGNATE_ENDPOINT, COGNATE_CLIENT_SECRET, COGNATE_DEMO_STORE,
         COGNATE_DEMO_PROFILE, COGNATE_DEMO_PASSWORDLESS=1)
        """

    public static func parse(arguments: [String], environment: [String: String]) throws -> DemoConfiguration {
        let flags: [String: String] = [
            "--endpoint": "COGNATE_ENDPOINT", "--pool-id": "COGNATE_POOL_ID", "--client-id": "COGNATE_CLIENT_ID",
            "--client-secret": "COGNATE_CLIENT_SECRET", "--store": "COGNATE_DEMO_STORE",
            "--profile": "COGNATE_DEMO_PROFILE",
        ]
        var values: [String: String] = [:]
        for (flag, variable) in flags { values[flag] = environment[variable] }
        var passwordless = environment["COGNATE_DEMO_PASSWORDLESS"] == "1"
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            if flag == "--passwordless" {
                passwordless = true
                continue
            }
            guard flags[flag] != nil else { throw UsageError(description: "Unknown option \(flag).\n\(usage)") }
            guard let value = remaining.popFirst() else { throw UsageError(description: "\(flag) needs a value.\n\(usage)") }
            values[flag] = value
        }
        guard let poolId = values["--pool-id"], let clientId = values["--client-id"] else {
            throw UsageError(description: "The pool id and client id are required.\n\(usage)")
        }
        guard let endpoint = URL(string: values["--endpoint"] ?? "http://127.0.0.1:9229"), endpoint.scheme != nil else {
            throw UsageError(description: "The endpoint must be a URL such as http://127.0.0.1:9229.")
        }
        let home = FileManager.default.homeDirectoryForCurrentUser
        return DemoConfiguration(
            endpoint: endpoint, userPoolId: poolId, clientId: clientId, clientSecret: values["--client-secret"],
            storeDirectory: values["--store"].map { URL(fileURLWithPath: $0) } ?? home.appendingPathComponent(".cognate-demo"),
            profile: values["--profile"] ?? "default", passwordless: passwordless)
    }

    /// The SDK configuration: tokens and registration progress in a ``FileTokenStore``.
    public func authConfiguration() -> AuthConfiguration {
        AuthConfiguration(
            endpoint: endpoint, userPoolId: userPoolId, clientId: clientId, clientSecret: clientSecret,
            tokenStore: FileTokenStore(directory: storeDirectory, name: "registration-demo"), profile: profile)
    }
}
