import CognateProtocol

/// A pool's threat protection (`UserPoolAddOns.AdvancedSecurityMode`): `off` records nothing;
/// `audit` records auth events with their risk and acts on none; `enforced` also acts on the
/// risk configuration (blocks, asks for MFA, notifies).
enum ThreatProtectionMode: Sendable {
    case off, audit, enforced
}

extension PoolRecord {
    var threatProtection: ThreatProtectionMode {
        switch settings.userPoolAddOns?.advancedSecurityMode {
        case .audit?: .audit
        case .enforced?: .enforced
        default: .off
        }
    }

    /// The risk configuration that applies through app client `clientId`: the client's own,
    /// else the pool's (SetRiskConfiguration without ClientId), else none.
    func riskConfiguration(clientId: String?) -> RiskConfigurationType? {
        clientId.flatMap { riskConfigurations[$0] } ?? riskConfigurations[""]
    }
}

/// Cognito's answers when threat protection refuses a request.
enum ThreatProtectionError {
    /// An address in RiskExceptionConfiguration's BlockedIPRangeList.
    static let blockedAddress = CognitoError.notAuthorized("Request not allowed due to security reasons.")
    /// An account-takeover risk or compromised credentials whose action is BLOCK.
    static let riskBlocked = CognitoError.notAuthorized("Unable to login because of security reasons.")
    /// A new password found in the operator's breached-password list (SIGN_UP, PASSWORD_CHANGE).
    static let compromisedPassword = CognitoError(
        .invalidPassword, "Password did not conform with policy: Password is compromised and cannot be used.")
}
