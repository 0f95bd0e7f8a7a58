import ArgumentParser
import CognateCore
import CognateServer
import CognateStorage
import Foundation
import Logging

/// Options shared by the commands that open the database; each falls back to an environment
/// variable, then to the zero-configuration default.
struct DatabaseOption: ParsableArguments {
    @Option(name: .long, help: "YAML configuration file (env COGNATE_CONFIG); flags and the environment override it. `cognate config keys` lists its keys.")
    var config: String?

    @Option(name: .long, help: "SQLite file path or postgres:// URL (env COGNATE_DATABASE; default ./.cognate/cognate.sqlite).")
    var database: String?

    @Option(name: .long, help: "PostgreSQL connections per node (env COGNATE_DB_POOL_SIZE; default 10).")
    var dbPoolSize: Int?

    @Option(name: .long, help: "Seconds a database statement may run, 0 for no limit (env COGNATE_DB_STATEMENT_TIMEOUT; default 10).")
    var dbStatementTimeout: Double?

    /// Loads the configuration file before any command reads a setting.
    func validate() throws {
        try Setting.useConfigFile(config)
    }

    var resolved: String {
        Setting.string(database, "COGNATE_DATABASE") ?? ServerConfiguration().database
    }

    /// Opens the server's database for a command that works on it (all but `serve` and
    /// `migrate`), runs `body` and closes it.
    ///
    /// Contract: creates nothing. A location without a Cognate database (no file, a database
    /// without Cognate's tables) is refused with the place looked at and how to name the right
    /// one (``openingFailure(_:)``). `migrating`: an older schema is brought up to date first.
    func withStore<Result>(migrating: Bool = true, _ body: (SQLStore) async throws -> Result) async throws -> Result {
        let options = try options()
        let store: SQLStore
        do {
            store = try await SQLStore.open(resolved, options: options, logger: Logger(label: "cognate"), migrate: migrating,
                                            creating: false)
        } catch {
            throw openingFailure(error)
        }
        return try await using(store, close: { await $0.close() }, body)
    }

    /// An error from opening the database, as the one line a command prints: the storage's
    /// reason (where it looked, what refused), where the location came from (flag, environment,
    /// configuration file, or the default under the current directory) and what sets another.
    func openingFailure(_ error: any Error) -> any Error {
        let reason = (error as? CognateServer.DatabaseUnavailable)?.reason ?? error
        let from = Setting.origin(of: "COGNATE_DATABASE", flag: database).map { "from \($0)" }
            ?? "the default, \(ServerConfiguration().database), under the current directory"
        func sentence(_ message: String) -> String { message.hasSuffix(".") ? String(message.dropLast()) : message }
        switch reason {
        case StorageError.noDatabase(let message):
            return StartupFailure("\(sentence(message)) (\(from)). Name the server's database with --database, COGNATE_DATABASE "
                + "or database: in the configuration file; only `cognate serve` and `cognate migrate` create one.")
        case let storage as StorageError:
            return StartupFailure("\(sentence("\(storage)")) (\(from); --database or COGNATE_DATABASE sets it).")
        default:
            return StartupFailure("Cannot open the database \(SQLStore.redacted(resolved)): \(reason)")
        }
    }

    func options() throws -> DatabaseOptions {
        var options = DatabaseOptions()
        if let size = try Setting.number(dbPoolSize, "COGNATE_DB_POOL_SIZE", minimum: 1) { options.poolSize = size }
        if let timeout = try Setting.number(dbStatementTimeout, "COGNATE_DB_STATEMENT_TIMEOUT", minimum: 0) {
            options.statementTimeout = timeout == 0 ? nil : timeout
        }
        return options
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

    @Option(name: .long, help: "Serve HTTPS with this certificate chain (PEM; env COGNATE_TLS_CERTIFICATE); reloaded on SIGHUP.")
    var tlsCertificate: String?

    @Option(name: .long, help: "The private key of --tls-certificate (PEM; env COGNATE_TLS_KEY).")
    var tlsKey: String?

    @Option(name: .long, parsing: .singleValue,
            help: "Admin access key as AKID:SECRET, repeatable; visible to every local user in the process list: prefer env COGNATE_ADMIN_CREDENTIALS (comma-separated) or --admin-credentials-file.")
    var adminCredentials: [String] = []

    @Option(name: .long, help: "Region used in pool ids and ARNs (env COGNATE_REGION; default us-east-1).")
    var region: String?

    @Option(name: .long, help: "File holding admin access keys, AKID:SECRET per line (env COGNATE_ADMIN_CREDENTIALS_FILE).")
    var adminCredentialsFile: String?

    @Flag(name: .long, help: "Let dev mode listen on a non-loopback address (env COGNATE_DEV_MODE_ON_NETWORK=1). Dev mode accepts any credentials and shows every code: use it only on a network no one else reaches.")
    var devModeOnNetwork = false

    @Option(name: .long, help: "Comma-separated origins whose web pages may call the public operations, * for any (env COGNATE_CORS_ORIGINS; default *). Admin operations never answer to browsers.")
    var corsOrigins: String?

    @Option(name: .long, help: "STS endpoint GetCredentialsForIdentity exchanges identity pools' OpenID tokens at (AssumeRoleWithWebIdentity), e.g. https://sts.amazonaws.com (env COGNATE_STS_ENDPOINT; default none: GetCredentialsForIdentity answers ExternalServiceException).")
    var stsEndpoint: String?

    @Option(name: .customLong("identity-provider-urls"), help: "Comma-separated NAME=URL: base URLs standing in for identity-pool login providers (accounts.google.com, appleid.apple.com, graph.facebook.com, www.amazon.com, an OIDC provider's name), e.g. for tests (env COGNATE_IDENTITY_PROVIDER_URLS).")
    var identityProviderURLs: String?

    @Option(name: .long, help: "Comma-separated networks (CIDR, e.g. 10.1.0.0/16) client ID metadata document URLs may resolve to besides public addresses (env COGNATE_CLIENT_METADATA_PRIVATE_NETWORKS; default none).")
    var clientMetadataPrivateNetworks: String?

    @Option(name: .long, help: "PEM file of CA certificates trusted, beside the system's, for fetching client ID metadata documents (env COGNATE_CLIENT_METADATA_CA_FILE).")
    var clientMetadataCaFile: String?

    @Option(name: .long, help: "Behind a reverse proxy: header whose last entry is the caller's address, e.g. X-Forwarded-For (env COGNATE_CLIENT_ADDRESS_HEADER).")
    var clientAddressHeader: String?

    @Option(name: .long, help: "SignUp/ConfirmSignUp/ResendConfirmationCode calls per client and caller address per minute, 0 for no limit (env COGNATE_RATE_LIMIT_USER_CREATION; default 60).")
    var rateLimitUserCreation: Int?

    @Option(name: .long, help: "ForgotPassword/ConfirmForgotPassword calls per client and caller address per minute, 0 for no limit (env COGNATE_RATE_LIMIT_ACCOUNT_RECOVERY; default 30).")
    var rateLimitAccountRecovery: Int?

    @Option(name: .long, help: "Codes sent to one email address or phone number per pool per hour, 0 for no limit (env COGNATE_RATE_LIMIT_MESSAGES; default 10).")
    var rateLimitMessages: Int?

    @Option(name: .long, help: "Hosted sign-in steps kept (pages after a submitted form, federated sign-ins) per client and caller address per minute, 0 for no limit (env COGNATE_RATE_LIMIT_HOSTED_FLOWS; default 120).")
    var rateLimitHostedFlows: Int?

    @Option(name: .long, help: "How email reaches users: outbox, smtp or webhook (env COGNATE_EMAIL_DELIVERY; default outbox in dev mode, required in production).")
    var emailDelivery: String?

    @Option(name: .long, help: "How SMS reaches users: outbox or webhook (env COGNATE_SMS_DELIVERY; default outbox).")
    var smsDelivery: String?

    @Option(name: .long, help: "SMTP server host (env COGNATE_SMTP_HOST); its password comes from COGNATE_SMTP_PASSWORD or --smtp-password-file.")
    var smtpHost: String?

    @Option(name: .long, help: "SMTP port (env COGNATE_SMTP_PORT; default 587, 465 with --smtp-security tls).")
    var smtpPort: Int?

    @Option(name: .long, help: "starttls, tls or none (env COGNATE_SMTP_SECURITY; default starttls).")
    var smtpSecurity: String?

    @Option(name: .long, help: "SMTP user name (env COGNATE_SMTP_USERNAME).")
    var smtpUsername: String?

    @Option(name: .long, help: "File holding the SMTP password (env COGNATE_SMTP_PASSWORD holds it directly).")
    var smtpPasswordFile: String?

    @Option(name: .long, help: "Sender when a pool names none, 'Name <address>' (env COGNATE_SMTP_FROM).")
    var smtpFrom: String?

    @Option(name: .long, help: "Extra CA certificate (PEM) to trust for the SMTP server (env COGNATE_SMTP_CA_FILE).")
    var smtpCAFile: String?

    @Option(name: .long, help: "This server's host name, given in SMTP's EHLO (env COGNATE_SMTP_HOSTNAME; default localhost).")
    var smtpHostname: String?

    @Option(name: .long, help: "Endpoint that receives emails as signed JSON (env COGNATE_EMAIL_WEBHOOK_URL).")
    var emailWebhookURL: String?

    @Option(name: .long, help: "Endpoint that receives SMS as signed JSON (env COGNATE_SMS_WEBHOOK_URL).")
    var smsWebhookURL: String?

    @Option(name: .long, help: "File holding the webhook signing secret (env COGNATE_WEBHOOK_SECRET holds it directly).")
    var webhookSecretFile: String?

    @Option(name: .long, help: "Append an audit line (JSON) per API call that signs someone in or changes something to this file (env COGNATE_AUDIT_LOG).")
    var auditLog: String?

    @Option(name: .long, help: "File of breached passwords for threat protection: SHA-1 hex per line (Have I Been Pwned format) or passwords in clear (env COGNATE_BREACHED_PASSWORDS).")
    var breachedPasswords: String?

    @Option(name: .long, help: "Directory of the JSON-lines files SetLogDeliveryConfiguration's destinations map to (env COGNATE_LOG_DELIVERY_DIRECTORY).")
    var logDeliveryDirectory: String?

    @Option(name: .long, help: "trace, debug, info, notice, warning, error or critical (env COGNATE_LOG_LEVEL; default info).")
    var logLevel: String?

    @Option(name: .long, help: "text or json, one object per line (env COGNATE_LOG_FORMAT; default text).")
    var logFormat: String?

    @Option(name: .long, help: "Seconds a pool/client change on another node may take to apply here (env COGNATE_CONFIG_CACHE_SECONDS; default 5).")
    var configCacheSeconds: Double?

    @Option(name: .long, help: "Seconds between loads of signing keys rotated elsewhere (env COGNATE_KEY_REFRESH_SECONDS; default 30).")
    var keyRefreshSeconds: Double?

    /// The configuration from flags, the environment and the configuration file.
    ///
    /// Contract: every setting is read, and every refusal (a value that is not a number, an
    /// unknown mode, an unreadable secret file, then ``ServerConfiguration/problems(listening:)``)
    /// is reported together, one per line, each naming the setting where it was given.
    /// - Parameter listening: false when the database is opened without serving (see
    ///   ``ServerConfiguration/problems(listening:)``).
    func configuration(listening: Bool = true) throws -> ServerConfiguration {
        let refusals = Refusals()
        var config = ServerConfiguration()
        config.database = database.resolved
        config.databaseOptions = refusals.read { try database.options() } ?? config.databaseOptions
        config.host = Setting.string(host, "COGNATE_HOST") ?? config.host
        config.port = refusals.read { try Setting.number(port, "COGNATE_PORT", minimum: 0) } ?? config.port
        config.publicBaseURL = Setting.string(publicURL, "COGNATE_PUBLIC_URL")
        config.tlsCertificatePath = Setting.string(tlsCertificate, "COGNATE_TLS_CERTIFICATE")
        config.tlsKeyPath = Setting.string(tlsKey, "COGNATE_TLS_KEY")
        if (config.tlsCertificatePath == nil) != (config.tlsKeyPath == nil) {
            refusals.add("tls.certificate and tls.key go together (--tls-certificate and --tls-key, "
                + "COGNATE_TLS_CERTIFICATE and COGNATE_TLS_KEY).")
        }
        let modeText = Setting.string(mode, "COGNATE_MODE") ?? config.mode.rawValue
        if let mode = ServerConfiguration.Mode(rawValue: modeText) {
            config.mode = mode
        } else {
            refusals.add("\(Setting.origin(of: "COGNATE_MODE", flag: self.mode) ?? "mode") must be dev or production, not \(modeText).")
        }
        config.region = Setting.string(region, "COGNATE_REGION") ?? config.region
        config.delivery = deliverySettings(refusals)
        config.clientAddressHeader = Setting.string(clientAddressHeader, "COGNATE_CLIENT_ADDRESS_HEADER")
        config.rateLimits.userCreationPerMinute = refusals.read { try Setting.number(
            rateLimitUserCreation, "COGNATE_RATE_LIMIT_USER_CREATION", minimum: 0) } ?? config.rateLimits.userCreationPerMinute
        config.rateLimits.accountRecoveryPerMinute = refusals.read { try Setting.number(
            rateLimitAccountRecovery, "COGNATE_RATE_LIMIT_ACCOUNT_RECOVERY", minimum: 0) } ?? config.rateLimits.accountRecoveryPerMinute
        config.rateLimits.messagesPerDestinationPerHour = refusals.read { try Setting.number(
            rateLimitMessages, "COGNATE_RATE_LIMIT_MESSAGES", minimum: 0) } ?? config.rateLimits.messagesPerDestinationPerHour
        config.rateLimits.hostedFlowsPerMinute = refusals.read { try Setting.number(
            rateLimitHostedFlows, "COGNATE_RATE_LIMIT_HOSTED_FLOWS", minimum: 0) } ?? config.rateLimits.hostedFlowsPerMinute
        config.allowDevModeOnNetwork = Setting.isOn(devModeOnNetwork, "COGNATE_DEV_MODE_ON_NETWORK")
        if let origins = Setting.string(corsOrigins, "COGNATE_CORS_ORIGINS") {
            config.corsAllowedOrigins = origins.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        config.configurationCacheSeconds = refusals.read {
            try Setting.number(configCacheSeconds, "COGNATE_CONFIG_CACHE_SECONDS", minimum: 0)
        } ?? config.configurationCacheSeconds
        config.keyRefreshSeconds = refusals.read {
            try Setting.number(keyRefreshSeconds, "COGNATE_KEY_REFRESH_SECONDS", minimum: 1)
        } ?? config.keyRefreshSeconds
        if !adminCredentials.isEmpty { Self.warnOfCredentialsOnTheCommandLine() }
        let pairs = adminCredentials.isEmpty
            ? (refusals.read { try Setting.secret(file: adminCredentialsFile, "COGNATE_ADMIN_CREDENTIALS") } ?? "")
                .split(whereSeparator: { $0 == "," || $0.isNewline }).map { $0.trimmingCharacters(in: .whitespaces) }
            : adminCredentials
        for pair in pairs where !pair.isEmpty {
            let parts = pair.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                let origin = adminCredentials.isEmpty
                    ? Setting.origin(of: "COGNATE_ADMIN_CREDENTIALS_FILE", flag: adminCredentialsFile)
                        ?? Setting.origin(of: "COGNATE_ADMIN_CREDENTIALS", flag: nil)
                    : "--admin-credentials"
                refusals.add("Admin credentials\(origin.map { " (\($0))" } ?? "") must look like AKID:SECRET.")
                break
            }
            config.adminCredentials[parts[0]] = parts[1]
        }
        if let path = Setting.string(breachedPasswords, "COGNATE_BREACHED_PASSWORDS") {
            do {
                config.breachedPasswords = try BreachedPasswords.load(path: path)
            } catch {
                refusals.add("Cannot read the breached-password list \(path).")
            }
        }
        config.auditLogPath = Setting.string(auditLog, "COGNATE_AUDIT_LOG")
        config.logDeliveryDirectory = Setting.string(logDeliveryDirectory, "COGNATE_LOG_DELIVERY_DIRECTORY")
        if let text = Setting.string(stsEndpoint, "COGNATE_STS_ENDPOINT") {
            if let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil {
                config.stsEndpoint = url
            } else {
                refusals.add("\(Setting.origin(of: "COGNATE_STS_ENDPOINT", flag: stsEndpoint) ?? "sts_endpoint") must be an http(s) URL, not \(text).")
            }
        }
        if let text = Setting.string(identityProviderURLs, "COGNATE_IDENTITY_PROVIDER_URLS") {
            for pair in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !pair.isEmpty {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty, let url = URL(string: parts[1]), url.host != nil else {
                    refusals.add("identity_provider_urls must be NAME=URL pairs separated by commas, not \(pair).")
                    continue
                }
                config.identityProviderURLs[parts[0]] = parts[1]
            }
        }
        if let text = Setting.string(clientMetadataPrivateNetworks, "COGNATE_CLIENT_METADATA_PRIVATE_NETWORKS") {
            for item in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
                guard let range = AddressRange(item) else {
                    refusals.add("client_metadata_private_networks must be CIDR networks separated by commas, not \(item).")
                    continue
                }
                config.clientMetadataPrivateNetworks.append(range)
            }
        }
        if let path = Setting.string(clientMetadataCaFile, "COGNATE_CLIENT_METADATA_CA_FILE") {
            if FileManager.default.isReadableFile(atPath: path) {
                config.clientMetadataCAFile = path
            } else {
                refusals.add("Cannot read the client metadata CA file \(path).")
            }
        }
        _ = refusals.read { try Serve.logLevel(logLevel) }
        _ = refusals.read { try Serve.logsAsJSON(logFormat) }
        let problems = refusals.messages + config.problems(listening: listening)
        guard problems.isEmpty else { throw ValidationError(problems.joined(separator: "\n")) }
        return config
    }

    /// `--admin-credentials` works, but its secret is in the process list (`ps`, /proc) for
    /// every local user to read: say so on standard error, naming the ways that keep it private.
    static func warnOfCredentialsOnTheCommandLine() {
        let warning = """
            Warning: --admin-credentials puts the secret in the process list, where every user of this \
            machine can read it. Give it in COGNATE_ADMIN_CREDENTIALS, or in a file only its owner may \
            read (--admin-credentials-file, or admin_credentials_file in the configuration file).

            """
        FileHandle.standardError.write(Data(warning.utf8))
    }

    /// The delivery channels and what they need; secrets from the environment or files only.
    /// Refusals are added to `refusals`.
    func deliverySettings(_ refusals: Refusals) -> DeliverySettings {
        var delivery = DeliverySettings()
        func channel(_ flag: String?, _ variable: String) -> DeliverySettings.Channel? {
            guard let text = Setting.string(flag, variable) else { return nil }
            guard let channel = DeliverySettings.Channel(rawValue: text) else {
                refusals.add("\(Setting.origin(of: variable, flag: flag) ?? variable) must be outbox, smtp or webhook, not \(text).")
                return nil
            }
            return channel
        }
        delivery.email = channel(emailDelivery, "COGNATE_EMAIL_DELIVERY")
        delivery.sms = channel(smsDelivery, "COGNATE_SMS_DELIVERY")
        delivery.smtpHost = Setting.string(smtpHost, "COGNATE_SMTP_HOST")
        delivery.smtpPort = refusals.read { try Setting.number(smtpPort, "COGNATE_SMTP_PORT", minimum: 1) }
        delivery.smtpSecurity = Setting.string(smtpSecurity, "COGNATE_SMTP_SECURITY") ?? delivery.smtpSecurity
        delivery.smtpUsername = Setting.string(smtpUsername, "COGNATE_SMTP_USERNAME")
        delivery.smtpPassword = refusals.read { try Setting.secret(file: smtpPasswordFile, "COGNATE_SMTP_PASSWORD") }
        delivery.smtpFrom = Setting.string(smtpFrom, "COGNATE_SMTP_FROM")
        delivery.smtpCAFile = Setting.string(smtpCAFile, "COGNATE_SMTP_CA_FILE")
        delivery.smtpHostname = Setting.string(smtpHostname, "COGNATE_SMTP_HOSTNAME") ?? delivery.smtpHostname
        delivery.emailWebhookURL = Setting.string(emailWebhookURL, "COGNATE_EMAIL_WEBHOOK_URL")
        delivery.smsWebhookURL = Setting.string(smsWebhookURL, "COGNATE_SMS_WEBHOOK_URL")
        delivery.webhookSecret = refusals.read { try Setting.secret(file: webhookSecretFile, "COGNATE_WEBHOOK_SECRET") }
        return delivery
    }
}

/// Runs `body` with `resource`, then closes it, whether `body` returned or threw.
func using<Resource, Result>(_ resource: Resource, close: (Resource) async -> Void,
                             _ body: (Resource) async throws -> Result) async throws -> Result {
    do {
        let result = try await body(resource)
        await close(resource)
        return result
    } catch {
        await close(resource)
        throw error
    }
}

/// The refusals of settings read one after another, reported together at the end.
final class Refusals {
    private(set) var messages: [String] = []

    func add(_ message: String) { messages.append(message) }

    /// `body`'s value, or nil with its refusal kept.
    func read<Value>(_ body: () throws -> Value?) -> Value? {
        do { return try body() } catch {
            messages.append("\(error)")
            return nil
        }
    }
}
