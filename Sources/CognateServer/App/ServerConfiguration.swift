import CognateCore
import Foundation
import Prometheus

/// How a Cognate server runs. Every value has a zero-configuration default for development.
public struct ServerConfiguration: Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Any credentials are accepted for admin operations; messages go to the outbox.
        case dev
        /// Admin operations need a valid SigV4 signature from a configured access key.
        case production
    }

    public var host = "127.0.0.1"
    public var port = 9229
    /// A SQLite file path, or a `postgres://` URL.
    public var database = "./.cognate/cognate.sqlite"
    public var databaseOptions = DatabaseOptions()
    /// Base URL clients reach the server at; token issuers are `<publicBaseURL>/<poolId>`.
    /// Defaults to `http://<host>:<port>`.
    public var publicBaseURL: String?
    public var mode = Mode.dev
    /// Secret access key by access key id, for SigV4 on admin operations.
    public var adminCredentials: [String: String] = [:]
    public var region = "us-east-1"
    /// Largest request body accepted, in bytes.
    public var maxBodyBytes = 1 << 20
    /// Origins whose web pages may call the public operations and read the JWKS (`*`: any).
    /// Admin operations and the dev outbox never answer to other origins.
    public var corsAllowedOrigins = ["*"]
    /// Lets dev mode (no signatures, readable outbox) listen on a non-loopback address.
    public var allowDevModeOnNetwork = false
    /// Behind a reverse proxy: the header whose last entry is the caller's address (e.g.
    /// `X-Forwarded-For`). Only set it when every request comes through that proxy.
    public var clientAddressHeader: String?
    /// Limits per caller address and per message destination.
    public var rateLimits = RateLimitSettings()
    /// How messages reach users.
    public var delivery = DeliverySettings()
    /// Longest a pool or client change made on another node takes to reach this one if its
    /// notice in the change feed (read every second) were missed.
    public var configurationCacheSeconds: Double = 5
    /// How often this node reloads the signing keys it uses, should it miss a change-feed
    /// notice (it also reloads when a token names an unknown key).
    public var keyRefreshSeconds: Double = 30
    /// Built-in TLS: the certificate chain and key (PEM files), reloaded on SIGHUP; nil: plain HTTP.
    /// The audit log's file (JSON lines); nil: none.
    public var auditLogPath: String?
    /// The operator's breached passwords, for threat protection's compromised-credentials check.
    public var breachedPasswords = BreachedPasswords.empty
    /// Where SetLogDeliveryConfiguration's destinations are written (one JSON-lines file each).
    public var logDeliveryDirectory: String?
    /// The STS endpoint identity pools' GetCredentialsForIdentity calls; nil: none.
    public var stsEndpoint: URL?
    /// Base URLs standing in for identity-pool login providers, by Logins key.
    public var identityProviderURLs: [String: String] = [:]
    /// Client ID metadata documents: networks (CIDR) their URLs may resolve to besides public
    /// addresses, and a PEM file of CA certificates trusted beside the system's for them.
    public var clientMetadataPrivateNetworks: [AddressRange] = []
    public var clientMetadataCAFile: String?
    public var tlsCertificatePath: String?
    public var tlsKeyPath: String?
    /// Where `GET /metrics` reads from (`ServerMetrics.bootstrap()`); nil: no metrics route.
    public var metricsRegistry: PrometheusCollectorRegistry?

    public init() {}

    public var resolvedPublicBaseURL: String {
        if let publicBaseURL { return publicBaseURL.hasSuffix("/") ? String(publicBaseURL.dropLast()) : publicBaseURL }
        let shownHost = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return "\(tlsCertificatePath == nil ? "http" : "https")://\(shownHost):\(port)"
    }

    /// Why this configuration cannot start, if it cannot.
    /// - Parameter listening: false for a process that only opens the database (the CLI's
    ///   `--database` mode): what guards the HTTP listener (admin credentials, loopback) does not apply.
    public func problems(listening: Bool = true) -> [String] {
        var problems: [String] = []
        if listening {
            if !(0...65535).contains(port) { problems.append("Port \(port) is out of range.") }
            if mode == .production && adminCredentials.isEmpty {
                problems.append("Production mode needs admin credentials: a file only its owner may read, holding AKID:SECRET "
                    + "per line, named by --admin-credentials-file, COGNATE_ADMIN_CREDENTIALS_FILE or admin_credentials_file "
                    + "in the configuration file (or the keys themselves in COGNATE_ADMIN_CREDENTIALS).")
            }
            if mode == .dev && !Self.isLoopback(host) && !allowDevModeOnNetwork {
                problems.append(
                    "Dev mode accepts any credentials and shows every code in its outbox, so it listens on loopback only "
                        + "(not \(host)). Use --mode production, or add --dev-mode-on-network if no one else can reach this network.")
            }
            for (key, path) in [("tls.certificate", tlsCertificatePath), ("tls.key", tlsKeyPath)] {
                if let path, !FileManager.default.isReadableFile(atPath: path) { problems.append("\(key): cannot read \(path).") }
            }
        }
        problems += delivery.problems(mode: mode)
        if let url = publicBaseURL, URL(string: url)?.scheme == nil {
            problems.append("The public base URL must be absolute (http://… or https://…): \(url)")
        }
        return problems
    }

    /// Whether `host` only accepts connections from this machine.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// What `cognate serve` prints once listening on `port`: where, how, and (in dev mode) how
    /// to try it. Database passwords are never shown.
    public func banner(port: Int) -> String {
        var shown = self
        shown.port = port
        let endpoint = shown.resolvedPublicBaseURL
        var lines = [
            "Cognate is listening on \(tlsCertificatePath == nil ? "http" : "https")://\(host):\(port) (\(mode.rawValue) mode)",
            "Database: \(DatabaseLocationText.redacted(database))",
        ]
        lines.append("Email: \((delivery.email ?? .outbox).rawValue), SMS: \((delivery.sms ?? .outbox).rawValue)")
        if mode == .dev {
            lines += [
                "Dev mode: admin operations accept any AWS credentials; the outbox keeps every message",
                "  (\(endpoint)/_dev/outbox, or `cognate outbox`).",
                "",
                "Try it:",
                "  export AWS_ACCESS_KEY_ID=dev AWS_SECRET_ACCESS_KEY=dev AWS_DEFAULT_REGION=\(region)",
                "  aws cognito-idp create-user-pool --pool-name demo --endpoint-url \(endpoint)",
            ]
        } else {
            lines.append("Production mode: admin operations require SigV4 with \(adminCredentials.count) configured key(s).")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension ServerConfiguration {
    /// The core's settings this configuration gives.
    public var coreConfiguration: CoreConfiguration {
        var core = CoreConfiguration(
            region: region, publicBaseURL: resolvedPublicBaseURL,
            configurationCacheTTL: configurationCacheSeconds, rateLimits: rateLimits)
        core.breachedPasswords = breachedPasswords
        core.logDeliveryDirectory = logDeliveryDirectory
        core.identityPools = IdentityPoolSettings(stsEndpoint: stsEndpoint, providerURLs: identityProviderURLs)
        return core
    }
}
