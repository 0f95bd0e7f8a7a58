import CognateProtocol
import Foundation

/// Binding function ARNs to webhooks, and the secret those webhooks are called with: what
/// `cognate functions` does, in one place for the CLI and tests.
public enum FunctionBindings {
    static let secretName = "function-signing-secret"

    /// Binds `arn` to `url` (replacing an earlier binding); every node sees it within a second.
    public static func put(arn: String, url: String, in store: any Store, now: Date = Date()) async throws {
        guard arn.hasPrefix("arn:"), arn.count <= 2048 else {
            throw CognitoError.invalidParameter("\(arn) is not a function ARN (arn:aws:lambda:<region>:<account>:function:<name>).")
        }
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
            throw CognitoError.invalidParameter("\(url) is not an http:// or https:// URL.")
        }
        try await store.write { transaction in
            try await transaction.putFunction(FunctionBinding(arn: arn, url: url, updatedAt: now))
            try await transaction.recordChange(.functions, subject: arn, at: now)
        }
    }

    /// Removes the binding of `arn`; false when there was none.
    public static func delete(arn: String, in store: any Store, now: Date = Date()) async throws -> Bool {
        try await store.write { transaction in
            guard try await transaction.deleteFunction(arn: arn) else { return false }
            try await transaction.recordChange(.functions, subject: arn, at: now)
            return true
        }
    }

    /// The secret function webhooks are signed with when the operator configured none
    /// (`COGNATE_WEBHOOK_SECRET`): made once per database, so every node signs alike.
    public static func signingSecret(in store: any Store, random: any RandomSource = SystemRandom()) async throws -> String {
        let made = Array(SRPEncoding.hexString(random.bytes(32)).utf8)
        let stored = try await store.write { try await $0.insertServerSecretIfAbsent(named: secretName, value: made) }
        return String(decoding: stored, as: UTF8.self)
    }
}
