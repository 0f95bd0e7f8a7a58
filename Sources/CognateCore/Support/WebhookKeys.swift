import Crypto
import Foundation

/// The keys Cognate's webhook calls are signed with: one per purpose, each derived from the one
/// configured secret, so that whoever can verify one kind of call cannot sign another — a mail
/// or SMS gateway holding its key cannot make a trigger call, nor one function another's.
///
/// Contract: key = HMAC-SHA256(secret, label), the secret as its UTF-8 bytes, the label
/// `cognate-trigger:<function ARN>` for a function (Lambda triggers and custom senders),
/// `cognate-email-webhook` for the email delivery webhook, `cognate-sms-webhook` for the SMS
/// one. A receiver is given its key as 64 hex digits (`hex`; `cognate functions secret ARN`
/// prints a function's) and verifies with the 32 bytes they spell.
public enum WebhookKeys {
    public static func function(_ arn: String, secret: String) -> SymmetricKey {
        derive("cognate-trigger:" + arn, from: secret)
    }

    public static func emailWebhook(secret: String) -> SymmetricKey { derive("cognate-email-webhook", from: secret) }

    public static func smsWebhook(secret: String) -> SymmetricKey { derive("cognate-sms-webhook", from: secret) }

    /// A key as the 64 lower-case hex digits a receiver is given.
    public static func hex(_ key: SymmetricKey) -> String {
        key.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
    }

    private static func derive(_ label: String, from secret: String) -> SymmetricKey {
        SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(
            for: Data(label.utf8), using: SymmetricKey(data: Data(secret.utf8)))))
    }
}
