import CognateProtocol
import Foundation

extension IdentityService {
    /// The configuration that applies to `ClientId` (its own, else the pool's), or an empty one
    /// naming the pool (and client) when none is set.
    public func describeRiskConfiguration(_ request: DescribeRiskConfigurationRequest) async throws
        -> DescribeRiskConfigurationResponse
    {
        let pool = try await requirePool(request.userPoolId)
        if let clientId = request.clientId { _ = try await requireClient(clientId, poolId: pool.id) }
        let configuration = pool.riskConfiguration(clientId: request.clientId)
            ?? RiskConfigurationType(userPoolId: pool.id, clientId: request.clientId)
        return DescribeRiskConfigurationResponse(riskConfiguration: configuration)
    }

    /// Sets the pool's configuration (no ClientId) or one app client's, which then replaces the
    /// pool's for that client; a request with none of the three parts removes it. Needs
    /// threat protection on (UserPoolAddOnNotEnabledException).
    public func setRiskConfiguration(_ request: SetRiskConfigurationRequest) async throws -> SetRiskConfigurationResponse {
        let pool = try await requirePool(request.userPoolId)
        try Self.requireThreatProtection(pool)
        if let clientId = request.clientId { _ = try await requireClient(clientId, poolId: pool.id) }
        try Self.checkRiskConfiguration(request)
        let configuration = RiskConfigurationType(
            userPoolId: pool.id, clientId: request.clientId,
            compromisedCredentialsRiskConfiguration: request.compromisedCredentialsRiskConfiguration,
            accountTakeoverRiskConfiguration: request.accountTakeoverRiskConfiguration,
            riskExceptionConfiguration: request.riskExceptionConfiguration, lastModifiedDate: time.now)
        let isEmpty = request.compromisedCredentialsRiskConfiguration == nil
            && request.accountTakeoverRiskConfiguration == nil && request.riskExceptionConfiguration == nil
        try await editPool(pool.id) { pool in
            pool.riskConfigurations[request.clientId ?? ""] = isEmpty ? nil : configuration
        }
        return SetRiskConfigurationResponse(riskConfiguration: configuration)
    }

    private static func checkRiskConfiguration(_ request: SetRiskConfigurationRequest) throws {
        for filter in request.compromisedCredentialsRiskConfiguration?.eventFilter ?? [] where !filter.isKnown {
            throw CognitoError.invalidParameter("Invalid EventFilter: \(filter.rawValue)")
        }
        if let action = request.compromisedCredentialsRiskConfiguration?.actions.eventAction, !action.isKnown {
            throw CognitoError.invalidParameter("Invalid EventAction: \(action.rawValue)")
        }
        if let takeover = request.accountTakeoverRiskConfiguration {
            let actions = [takeover.actions.lowAction, takeover.actions.mediumAction, takeover.actions.highAction].compactMap { $0 }
            for action in actions where !action.eventAction.isKnown {
                throw CognitoError.invalidParameter("Invalid EventAction: \(action.eventAction.rawValue)")
            }
            if actions.contains(where: \.notify), takeover.notifyConfiguration == nil {
                throw CognitoError.invalidParameter("NotifyConfiguration is required when an action notifies the user.")
            }
        }
        let exceptions = request.riskExceptionConfiguration
        for range in (exceptions?.blockedIPRangeList ?? []) + (exceptions?.skippedIPRangeList ?? []) where IPRange(range) == nil {
            throw CognitoError.invalidParameter("Invalid IP range: \(range). Use CIDR notation, such as 192.0.2.0/24.")
        }
    }

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
