import CognateCore
import CognateServer
import CognateStorage

/// Every setting an operator can give in the configuration file or the environment.
///
/// Contract: a setting's configuration-file key is its `path` (dots are nested YAML keys) and its
/// environment variable is `COGNATE_` followed by the path in upper case with dots and dashes
/// as underscores (`smtp.ca_file` → `COGNATE_SMTP_CA_FILE`). A command-line flag beats the
/// environment, which beats the file, which beats the default. A secret is never written
/// in the file itself: the file names a file holding it (`<path>_file`), or the environment
/// gives it (`COGNATE_<PATH>` or `COGNATE_<PATH>_FILE`).
struct SettingDescription: Sendable {
    let path: String
    let summary: String
    var secret = false
    /// How `cognate config check` shows a value: a database URL without its password.
    var shown: @Sendable (String) -> String = { $0 }
    /// The value when nothing sets it, as `cognate config check` shows it; nil when it is unset
    /// by default (no public URL, no SMTP host…).
    var byDefault: String? = nil

    var variable: String { SettingCatalog.variable(for: path) }
    /// The setting that names a file holding the secret (only for secrets).
    var fileVariable: String { variable + "_FILE" }
}

enum SettingCatalog {
    static func variable(for path: String) -> String {
        "COGNATE_" + path.uppercased().map { $0 == "." || $0 == "-" ? "_" : $0 }.map(String.init).joined()
    }

    /// The defaults, read from the types that apply them.
    private static let server = ServerConfiguration()
    private static let database = DatabaseOptions()
    private static let limits = RateLimitSettings()
    private static let delivery = DeliverySettings()

    /// A number of seconds or a count as written in the file (`5`, not `5.0`).
    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    static let all: [SettingDescription] = [
        .init(path: "database", summary: "SQLite file path or postgres:// URL (default ./.cognate/cognate.sqlite)",
              shown: SQLStore.redacted, byDefault: server.database),
        .init(path: "db.pool_size", summary: "PostgreSQL connections per node (default 10)", byDefault: String(database.poolSize)),
        .init(path: "db.statement_timeout", summary: "seconds a database statement may run, 0 for no limit (default 10)",
              byDefault: number(database.statementTimeout ?? 0)),
        .init(path: "mode", summary: "dev or production (default dev)", byDefault: server.mode.rawValue),
        .init(path: "host", summary: "address to listen on (default 127.0.0.1)", byDefault: server.host),
        .init(path: "port", summary: "port to listen on (default 9229; 0 picks a free port)", byDefault: String(server.port)),
        .init(path: "public_url", summary: "base URL clients use; the token issuer is <url>/<poolId>",
              byDefault: "http://<host>:<port>"),
        .init(path: "region", summary: "region used in pool ids and ARNs (default us-east-1)", byDefault: server.region),
        .init(path: "dev_mode_on_network", summary: "true lets dev mode listen on a non-loopback address",
              byDefault: String(server.allowDevModeOnNetwork)),
        .init(path: "admin_credentials", summary: "admin access keys, AKID:SECRET separated by commas or lines", secret: true),
        .init(path: "tls.certificate", summary: "serve HTTPS with this PEM certificate chain (reloaded on SIGHUP)"),
        .init(path: "tls.key", summary: "the PEM private key of tls.certificate"),
        .init(path: "cors_origins", summary: "origins whose pages may call public operations, * for any (default *)",
              byDefault: server.corsAllowedOrigins.joined(separator: ",")),
        .init(path: "client_address_header", summary: "behind a proxy: header whose last entry is the caller's address"),
        .init(path: "sts_endpoint", summary: "STS endpoint GetCredentialsForIdentity calls (AssumeRoleWithWebIdentity); none by default"),
        .init(path: "identity_provider_urls", summary: "NAME=URL,…: base URLs standing in for identity-pool login providers"),
        .init(path: "client_metadata_private_networks",
              summary: "CIDR,…: networks client ID metadata document URLs may resolve to besides public addresses"),
        .init(path: "client_metadata_ca_file", summary: "PEM CA certificates trusted beside the system's for client metadata documents"),
        .init(path: "rate_limit.user_creation", summary: "sign-up calls per client and address per minute (default 60)",
              byDefault: String(limits.userCreationPerMinute)),
        .init(path: "rate_limit.account_recovery", summary: "recovery calls per client and address per minute (default 30)",
              byDefault: String(limits.accountRecoveryPerMinute)),
        .init(path: "rate_limit.messages", summary: "codes to one address per pool per hour (default 10)",
              byDefault: String(limits.messagesPerDestinationPerHour)),
        .init(path: "rate_limit.hosted_flows", summary: "hosted sign-in steps kept per client and address per minute (default 120)",
              byDefault: String(limits.hostedFlowsPerMinute)),
        .init(path: "email_delivery", summary: "outbox, smtp or webhook (default outbox in dev mode)", byDefault: "outbox in dev mode"),
        .init(path: "sms_delivery", summary: "outbox or webhook (default outbox)", byDefault: "outbox"),
        .init(path: "smtp.host", summary: "SMTP server host"),
        .init(path: "smtp.port", summary: "SMTP port (default 587, 465 with security tls)", byDefault: "587, 465 with security tls"),
        .init(path: "smtp.security", summary: "starttls, tls or none (default starttls)", byDefault: delivery.smtpSecurity),
        .init(path: "smtp.username", summary: "SMTP user name"),
        .init(path: "smtp.password", summary: "SMTP password", secret: true),
        .init(path: "smtp.from", summary: "sender when a pool names none, 'Name <address>'"),
        .init(path: "smtp.ca_file", summary: "extra CA certificate (PEM) to trust for the SMTP server"),
        .init(path: "smtp.hostname", summary: "this server's name in SMTP's EHLO (default localhost)", byDefault: delivery.smtpHostname),
        .init(path: "email_webhook_url", summary: "endpoint that receives emails as signed JSON"),
        .init(path: "sms_webhook_url", summary: "endpoint that receives SMS as signed JSON"),
        .init(path: "webhook_secret", summary: "signing secret of delivery and trigger webhooks", secret: true),
        .init(path: "config_cache_seconds", summary: "seconds a pool/client change on another node may take to apply (default 5)",
              byDefault: number(server.configurationCacheSeconds)),
        .init(path: "key_refresh_seconds", summary: "seconds between loads of keys rotated elsewhere (default 30)",
              byDefault: number(server.keyRefreshSeconds)),
        .init(path: "key_activation_seconds", summary: "`keys rotate`: seconds a new key is published before it signs (default 60)",
              byDefault: number(Keys.Rotate.defaultActivationSeconds)),
        .init(path: "audit_log", summary: "file the audit log is appended to (JSON lines: who did what, when, from where)"),
        .init(path: "breached_passwords", summary: "file of breached passwords (SHA-1 hex per line, or in clear) for threat protection"),
        .init(path: "log_delivery.directory", summary: "directory of the files SetLogDeliveryConfiguration's destinations map to"),
        .init(path: "log.level", summary: "trace, debug, info, notice, warning, error or critical (default info)",
              byDefault: Serve.defaultLogLevel.rawValue),
        .init(path: "log.format", summary: "text or json (one JSON object per line; default text)", byDefault: "text"),
    ]

    /// Every key a configuration file may hold: the settings' paths, and `<path>_file` of each secret.
    static let fileKeys: [String] = all.map(\.path) + all.filter(\.secret).map { $0.path + "_file" }

    static let byVariable: [String: SettingDescription] = Dictionary(uniqueKeysWithValues: all.map { ($0.variable, $0) })
}
