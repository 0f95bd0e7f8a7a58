import CognateCore
import CognateSMTP
import Foundation
import Logging

/// Email through an SMTP server (`CognateSMTP`), one connection reused across messages.
///
/// Contract: the sender is the pool's EmailConfiguration.From when it has one, else the
/// server's `--smtp-from`; SMTP's transient failures (4xx, timeouts, lost connections) are
/// temporary `DeliveryFailure`s the queue retries, the rest (5xx, TLS or configuration errors)
/// permanent. Failure reasons carry the reply code and stage, never the recipient or the text.
public final class SMTPDelivery: MessageDelivery {
    let client: SMTPClient
    let defaultSender: EmailAddress

    init(configuration: SMTPConfiguration, sender: EmailAddress, logger: Logger) throws {
        client = try SMTPClient(configuration: configuration, logger: logger)
        defaultSender = sender
    }

    public func deliver(_ message: OutboundMessage) async throws {
        let email: EmailMessage
        do {
            email = try EmailMessage(
                from: try message.sender.map(EmailAddress.init(parsing:)) ?? defaultSender,
                to: try EmailAddress(message.destination), subject: message.subject ?? "", textBody: message.body)
        } catch {
            throw DeliveryFailure(isPermanent: true, reason: "the message cannot be written as email: \(error)")
        }
        do {
            try await client.send(email)
        } catch let error as SMTPError {
            var reason = "SMTP \(error.classification)"
            if let reply = error.reply { reason += " reply \(reply.code)" }
            throw DeliveryFailure(isPermanent: error.isPermanent, reason: reason)
        }
    }

    public func shutdown() async { await client.shutdown() }
}

extension EmailAddress {
    /// `Name <address>` or a bare address.
    init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            let name = trimmed[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            try self.init(String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]),
                          displayName: name.isEmpty ? nil : name)
        } else {
            try self.init(trimmed)
        }
    }
}
