import CognateProtocol
import Foundation

extension ThreatProtectionAdministration {
    /// The configuration that applies to `ClientId` (its own, else the pool's), or an empty one
    /// naming the pool (and client) when none is set.
    public func describeRiskConfiguration(_ request: DescribeRiskConfigurationRequest) async throws
        -> DescribeRiskConfigurationResponse
    {
        let pool = try await directory.requirePool(request.userPoolId)
        if let clientId = request.clientId { _ = try await directory.requireClient(clientId, poolId: pool.id) }
        let configuration = pool.riskConfiguration(clientId: request.clientId)
            ?? RiskConfigurationType(userPoolId: pool.id, clientId: request.clientId)
        return DescribeRiskConfigurationResponse(riskConfiguration: configuration)
    }

    /// Sets the pool's configuration (no ClientId) or one app client's, which then replaces the
    /// pool's for that client; a request with none of the three parts removes it. Needs
    /// threat protection on (UserPoolAddOnNotEnabledException).
    public func setRiskConfiguration(_ request: SetRiskConfigurationRequest) async throws -> SetRiskConfigurationResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        try Self.requireThreatProtection(pool)
        if let clientId = request.clientId { _ = try await directory.requireClient(clientId, poolId: pool.id) }
        try Self.checkRiskConfiguration(request)
        let configuration = RiskConfigurationType(
            userPoolId: pool.id, clientId: request.clientId,
            compromisedCredentialsRiskConfiguration: request.compromisedCredentialsRiskConfiguration,
            accountTakeoverRiskConfiguration: request.accountTakeoverRiskConfiguration,
            riskExceptionConfiguration: request.riskExceptionConfiguration, lastModifiedDate: time.now)
        let isEmpty = request.compromisedCredentialsRiskConfiguration == nil
            && request.accountTakeoverRiskConfiguration == nil && request.riskExceptionConfiguration == nil
        try await directory.editPool(pool.id) { pool in
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
}
