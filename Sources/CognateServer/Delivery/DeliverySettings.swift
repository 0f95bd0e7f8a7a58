import CognateCore
import CognateSMTP
import Crypto
import Foundation
import Logging

/// How messages reach users: a channel per medium, and what each channel needs.
public struct DeliverySettings: Sendable {
    public enum Channel: String, Sendable, CaseIterable {
        /// Kept in the outbox table (dev mode: readable there, codes included).
        case outbox
        /// Email through an SMTP server.
        case smtp
        /// A signed JSON POST to the operator's endpoint.
        case webhook
    }

    /// The email channel; nil: the outbox in dev mode, a start-up error in production mode.
    public var email: Channel?
    /// The SMS channel; nil: the outbox in dev mode, the outbox (nothing sent) in production.
    public var sms: Channel?
    public var smtpHost: String?
    public var smtpPort: Int?
    /// `starttls` (default), `tls` (implicit, port 465) or `none` (loopback relays only).
    public var smtpSecurity = "starttls"
    public var smtpUsername: String?
    /// From `COGNATE_SMTP_PASSWORD` or a file, never the command line.
    public var smtpPassword: String?
    /// The sender when a pool names none (EmailConfiguration.From): `Name <address>` or an address.
    public var smtpFrom: String?
    /// An extra CA certificate (PEM) to trust, e.g. a private relay's.
    public var smtpCAFile: String?
    /// The name given in EHLO: this server's public host name.
    public var smtpHostname = "localhost"
    public var emailWebhookURL: String?
    public var smsWebhookURL: String?
    /// The key webhooks are signed with (from `COGNATE_WEBHOOK_SECRET` or a file).
    public var webhookSecret: String?

    public init() {}

    /// Why these settings cannot work, if they cannot.
    func problems(mode: ServerConfiguration.Mode) -> [String] {
        var problems: [String] = []
        if mode == .production && email == nil {
            problems.append(
                "Production mode needs an email channel: --email-delivery smtp or webhook (or outbox, which keeps no codes, "
                    + "so nobody can confirm an address).")
        }
        if email == .smtp {
            if smtpHost == nil { problems.append("SMTP delivery needs --smtp-host.") }
            if let smtpFrom {
                if (try? EmailAddress(parsing: smtpFrom)) == nil {
                    problems.append("--smtp-from must be an address or 'Name <address>', not \(smtpFrom).")
                }
            } else {
                problems.append("SMTP delivery needs --smtp-from (the sender address).")
            }
            if !["starttls", "tls", "none"].contains(smtpSecurity) {
                problems.append("--smtp-security must be starttls, tls or none, not \(smtpSecurity).")
            }
        }
        if let smtpCAFile, !FileManager.default.isReadableFile(atPath: smtpCAFile) {
            problems.append("smtp.ca_file: cannot read \(smtpCAFile).")
        }
        if sms == .smtp { problems.append("SMS cannot go through SMTP: --sms-delivery webhook or outbox.") }
        if email == .webhook && emailWebhookURL == nil { problems.append("Email webhook delivery needs --email-webhook-url.") }
        if sms == .webhook && smsWebhookURL == nil { problems.append("SMS webhook delivery needs --sms-webhook-url.") }
        if (email == .webhook || sms == .webhook) && (webhookSecret ?? "").isEmpty {
            problems.append("Webhook delivery needs a signing secret (COGNATE_WEBHOOK_SECRET or --webhook-secret-file).")
        }
        for url in [emailWebhookURL, smsWebhookURL].compactMap({ $0 }) where URL(string: url)?.scheme?.hasPrefix("http") != true {
            problems.append("A webhook URL must be http:// or https://: \(url)")
        }
        return problems
    }

    /// The channels, built once at start-up; `outbox` is the store's outbox.
    public func channels(outbox: OutboxDelivery, logger: Logger) throws -> (DeliveryChannels, SMTPDelivery?) {
        var smtp: SMTPDelivery?
        func channel(_ choice: Channel?, webhookURL: String?, key: (String) -> SymmetricKey) throws -> any MessageDelivery {
            switch choice {
            case .smtp?:
                if let smtp { return smtp }
                let security: SMTPSecurity = smtpSecurity == "tls" ? .implicitTLS : smtpSecurity == "none" ? .none : .startTLS
                let configuration = SMTPConfiguration(
                    host: smtpHost ?? "localhost", port: smtpPort, security: security,
                    credentials: smtpUsername.map { SMTPCredentials(username: $0, password: smtpPassword ?? "") },
                    tlsTrust: smtpCAFile.map { .systemRootsAndCertificateAuthorities(pemFile: $0) } ?? .systemRoots,
                    ehloHostname: smtpHostname)
                let created = try SMTPDelivery(
                    configuration: configuration, sender: try EmailAddress(parsing: smtpFrom ?? ""), logger: logger)
                smtp = created
                return created
            case .webhook?:
                return WebhookDelivery(url: URL(string: webhookURL ?? "")!, key: key(webhookSecret ?? ""))
            case .outbox?, nil:
                return outbox
            }
        }
        let email = try channel(email, webhookURL: emailWebhookURL, key: WebhookKeys.emailWebhook(secret:))
        let sms = try channel(sms, webhookURL: smsWebhookURL, key: WebhookKeys.smsWebhook(secret:))
        return (DeliveryChannels(email: email, sms: sms), smtp)
    }
}
