import CognateCore
import Foundation

/// The audit log (`audit_log`): one JSON line per API call that authenticates someone or
/// changes something — who (an admin access key, or the user a token or name names), what
/// (operation, pool, app client, target user, attribute names), when, from where, and how it
/// ended. Reads by signed-in users (GetUser, ListDevices …) are left out; admin reads are in.
///
/// Contract: no secret is ever written — no password, code, token, secret hash or attribute
/// value; only attribute names. Each line is appended with one write to a file opened for that
/// write, so a log rotation (rename) simply starts a new file, and lines of concurrent requests
/// never interleave. A failed write is reported once per failure to the server's log and never
/// fails the request.
struct AuditLog: Sendable {
    let path: String

    /// Public operations that are only reads of the caller's own data: not audited.
    static let quietOperations: Set<String> = [
        "GetUser", "GetDevice", "ListDevices", "GetUserAuthFactors", "GetPinPolicy", "GetUICustomization",
        "ListWebAuthnCredentials", "ListUserSessions",
    ]

    struct Call {
        var requestId: String
        var operation: String
        var isAdmin: Bool
        var outcome: String
        var status: Int
        var clientAddress: String?
        /// The access key whose signature was verified; nil when none was.
        var accessKeyId: String?
        /// The user whose access token the service verified for this call, if any.
        var verifiedUser: (sub: String, username: String)?
        /// The app client of a call outside the API: the flow's a hosted page continued, else the
        /// one the route's query named (`client_id`).
        var clientId: String? = nil
        var body: Data?
    }

    /// Throws `AuditLogUnwritable` when the file cannot be opened for appending.
    func checkWritable() throws {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        guard descriptor >= 0 else { throw AuditLogUnwritable(path: path) }
        close(descriptor)
    }

    func record(_ call: Call, now: Date = Date()) -> Bool {
        guard call.isAdmin || !Self.quietOperations.contains(call.operation) else { return true }
        var entry: [String: Any] = [
            "time": now.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            "request_id": call.requestId, "operation": call.operation, "outcome": call.outcome, "status": call.status,
        ]
        if let address = call.clientAddress { entry["client_address"] = address }
        if let clientId = call.clientId { entry["client_id"] = clientId }
        let input = call.body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
        entry.merge(Self.subject(of: input)) { first, _ in first }
        entry["actor"] = call.isAdmin
            ? ["kind": "admin", "access_key_id": call.accessKeyId ?? "unverified"]
            : Self.userActor(call.verifiedUser)
        guard var line = try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return false }
        line.append(0x0A)
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == line.count
    }

    /// What the call was about, from its input's names (never its secret values).
    static func subject(of input: [String: Any]) -> [String: Any] {
        var subject: [String: Any] = [:]
        let parameters = (input["AuthParameters"] as? [String: Any]) ?? (input["ChallengeResponses"] as? [String: Any]) ?? [:]
        for (key, name) in [("UserPoolId", "pool_id"), ("ClientId", "client_id"), ("GroupName", "group"),
                            ("AuthFlow", "auth_flow"), ("ChallengeName", "challenge"), ("ProviderName", "provider")] {
            if let value = input[key] as? String { subject[name] = value }
        }
        if let username = (input["Username"] as? String) ?? (parameters["USERNAME"] as? String) { subject["username"] = username }
        let attributes = ((input["UserAttributes"] as? [[String: Any]]) ?? []).compactMap { $0["Name"] as? String }
            + ((input["UserAttributeNames"] as? [String]) ?? [])
            + ((input["AttributeName"] as? String).map { [$0] } ?? [])
        if !attributes.isEmpty { subject["attributes"] = attributes }
        return subject
    }

    /// The user behind a public call: the one whose access token the service verified, never
    /// what the request itself claims (an unverified token, a name).
    static func userActor(_ verified: (sub: String, username: String)?) -> [String: Any] {
        var actor: [String: Any] = ["kind": "user"]
        if let verified {
            actor["sub"] = verified.sub
            actor["username"] = verified.username
        }
        return actor
    }
}

/// The audit log's file cannot be opened for appending: the server does not start.
public struct AuditLogUnwritable: Error, CustomStringConvertible {
    let path: String
    public var description: String { "Cannot append to the audit log \(path)." }
}
