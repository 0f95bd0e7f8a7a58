import CognateProtocol
import Foundation

/// Threat protection's record of what happened to a user (auth events), its checks of passwords and
/// its notices, wherever a use case needs them.
struct AuthEventRecorder: Sendable {
    let time: any TimeSource
    let random: any RandomSource
    let configuration: CoreConfiguration
    let logDeliveryFiles: LogDeliveryFiles
}

extension AuthEventRecorder {
    /// A new event of `type` now, from the caller's address; its id sorts by time (a UUID
    /// whose first 48 bits are the milliseconds since 1970, as in UUIDv7).
    func newAuthEvent(_ type: EventType) -> AuthEventType {
        let now = time.now
        return AuthEventType(
            eventId: Self.timeOrderedId(now, random: random.bytes(10)), eventType: type, creationDate: now,
            eventContextData: RequestOrigin.clientAddress.map { EventContextDataType(ipAddress: $0) })
    }

    /// Stores `event` of `user` in `transaction` with a fresh feedback token (returned, for a
    /// notification email; only its hash is kept), and hands it to the pool's log delivery.
    @discardableResult
    func recordAuthEvent(_ event: AuthEventType, of user: UserRecord, pool: PoolRecord,
                         in transaction: any StoreTransaction) async throws -> String {
        let token = Base64URL.encode(random.bytes(24))
        try await transaction.insertAuthEvent(AuthEventRecord(
            poolId: pool.id, userSub: user.sub, event: event, feedbackTokenHash: RefreshTokens.hash(token)))
        deliverAuthEventLog(event, username: user.username, pool: pool)
        return token
    }

    /// Records a successful event outside sign-in (SignUp, ForgotPassword, PasswordChange,
    /// ResendCode) in the operation's own transaction, when the pool has threat protection.
    func recordAuthEvent(_ type: EventType, of user: UserRecord, pool: PoolRecord,
                         in transaction: any StoreTransaction) async throws {
        guard pool.threatProtection != .off else { return }
        var event = newAuthEvent(type)
        event.eventResponse = .pass
        event.eventRisk = EventRiskType(riskDecision: .noRisk, compromisedCredentialsDetected: false)
        try await recordAuthEvent(event, of: user, pool: pool, in: transaction)
    }

    static func timeOrderedId(_ date: Date, random: [UInt8]) -> String {
        let milliseconds = UInt64(max(date.timeIntervalSince1970, 0) * 1000)
        var bytes = (0..<6).map { UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - $0))) } + random.prefix(10)
        bytes[6] = 0x70 | (bytes[6] & 0x0F)   // version 7
        bytes[8] = 0x80 | (bytes[8] & 0x3F)   // variant
        let hex = SRPEncoding.hexString(bytes)
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}

extension AuthEventRecorder {
    /// Writes an auth event to the pool's `userAuthEvents` destination, if it has one.
    func deliverAuthEventLog(_ event: AuthEventType, username: String, pool: PoolRecord) {
        guard pool.logDelivery != nil else { return }
        var entry: [String: Any] = [
            "username": username, "eventId": event.eventId ?? "",
            "eventType": event.eventType?.rawValue ?? "", "eventResponse": event.eventResponse?.rawValue ?? "",
            "eventTimestamp": Int64((event.creationDate ?? time.now).timeIntervalSince1970 * 1000),
            "riskDecision": event.eventRisk?.riskDecision?.rawValue ?? "",
        ]
        if let level = event.eventRisk?.riskLevel { entry["riskLevel"] = level.rawValue }
        if let compromised = event.eventRisk?.compromisedCredentialsDetected { entry["compromisedCredentialsDetected"] = compromised }
        if let address = event.eventContextData?.ipAddress { entry["ipAddress"] = address }
        logDeliveryFiles.deliver(entry, source: .userAuthEvents, isError: event.eventResponse == .fail, pool: pool)
    }
}

extension AuthEventRecorder {
    /// The compromised-credentials check of a new password (SIGN_UP or PASSWORD_CHANGE): refused
    /// when threat protection is enforced, the configuration that applies filters on `filter`
    /// with action BLOCK, and the password is in the operator's list.
    func checkNotCompromised(_ password: String, filter: EventFilterType, pool: PoolRecord, clientId: String?) throws {
        guard pool.threatProtection == .enforced,
            let setting = pool.riskConfiguration(clientId: clientId)?.compromisedCredentialsRiskConfiguration,
            setting.eventFilter?.contains(filter) ?? true, setting.actions.eventAction == .block,
            configuration.breachedPasswords.contains(password: password)
        else { return }
        throw ThreatProtectionError.compromisedPassword
    }

    /// The notification email of a risky sign-in (AccountTakeover action with Notify), queued
    /// in the sign-in's transaction and due at once: NotifyConfiguration's BlockEmail, MfaEmail
    /// or NoActionEmail with their placeholders filled, else a plain default.
    func queueRiskNotification(_ event: AuthEventType, feedbackToken: String, user: UserRecord, pool: PoolRecord,
                               client: ClientRecord, in transaction: any StoreTransaction) async throws {
        guard let email = user.attributes["email"], !email.isEmpty else { return }
        let notify = pool.riskConfiguration(clientId: client.clientId)?.accountTakeoverRiskConfiguration?.notifyConfiguration
        let blocked = event.eventResponse == .fail
        let template = blocked ? notify?.blockEmail : (event.eventResponse == .inProgress ? notify?.mfaEmail : notify?.noActionEmail)
        let link = { (value: String) in
            "\(self.configuration.publicBaseURL)/authEventFeedback?pool=\(pool.id)&username=\(Self.queryEscaped(user.username))"
                + "&event=\(event.eventId ?? "")&token=\(feedbackToken)&value=\(value)"
        }
        let values = [
            "{username}": user.username, "{ip-address}": event.eventContextData?.ipAddress ?? "unknown",
            "{city}": "unknown", "{country}": "unknown", "{device-name}": "unknown",
            "{login-time}": ISO8601DateFormatter().string(from: event.creationDate ?? time.now),
            "{one-click-link-valid}": link("valid"), "{one-click-link-invalid}": link("invalid"),
        ]
        let subject = template?.subject ?? (blocked ? "Blocked sign-in attempt" : "New sign-in to your account")
        let defaultBody = (blocked ? "We blocked a sign-in to {username} from {ip-address} at {login-time}."
            : "{username} signed in from {ip-address} at {login-time}.")
            + "\nThis was me: {one-click-link-valid}\nThis was not me: {one-click-link-invalid}"
        var body = template?.textBody ?? defaultBody
        for (placeholder, value) in values { body = body.replacingOccurrences(of: placeholder, with: value) }
        let now = time.now
        _ = try await transaction.enqueueMessage(OutboundMessage(
            poolId: pool.id, username: user.username, medium: .email, destination: email, subject: subject, body: body,
            code: nil, purpose: "riskNotification", sender: notify?.from ?? pool.settings.emailConfiguration?.from,
            occasion: nil, clientId: client.clientId), at: now, heldUntil: now)
    }

    private static func queryEscaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}
