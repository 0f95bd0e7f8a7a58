import CognateProtocol

/// How insistently threat protection asks for a second factor (`completeFirstFactor`).
enum RiskMfaDemand: Sendable {
    case required, ifConfigured
}

/// What a sign-in looks like to threat protection, gathered in its transaction.
struct SignInSignals: Sendable {
    /// The caller's address (nil outside a request).
    var address: String?
    /// The user has signed in successfully before, never from this address (of their recent events).
    var unfamiliarAddress = false
    /// Wrong passwords since the user's last successful sign-in.
    var recentFailures = 0
    /// The password is in the operator's breached-password list (only known when the server
    /// saw it: USER_PASSWORD_AUTH, not SRP).
    var compromisedPassword = false
}

/// The risk of one sign-in and what to do about it (pure: the same signals and configuration
/// always give the same verdict).
///
/// What is modelled (docs/security.md "Threat protection"): addresses in the exception lists;
/// compromised credentials from the operator's list; account-takeover risk from two signals —
/// an unfamiliar address is Low, three or more recent wrong passwords Medium, both High — each
/// level mapped to its configured action. Not modelled: device fingerprints, geolocation and
/// impossible travel, which need data Cognate does not have.
struct RiskAssessment: Sendable, Equatable {
    enum Verdict: Sendable, Equatable {
        case allow
        /// Ask for a second factor even on a remembered device; without one, block if `orBlock`.
        case requireMfa(orBlock: Bool)
        case block(CognitoError)
    }

    var eventRisk: EventRiskType
    var verdict: Verdict = .allow
    /// Send the user the configured notification email.
    var notify = false

    static let threshold = 3

    static func assess(_ signals: SignInSignals, configuration: RiskConfigurationType?, enforced: Bool) -> RiskAssessment {
        let exceptions = configuration?.riskExceptionConfiguration
        if let address = signals.address {
            if Self.listed(address, in: exceptions?.skippedIPRangeList) {
                return RiskAssessment(eventRisk: EventRiskType(riskDecision: .noRisk, compromisedCredentialsDetected: false))
            }
            if Self.listed(address, in: exceptions?.blockedIPRangeList) {
                return RiskAssessment(
                    eventRisk: EventRiskType(riskDecision: .block, riskLevel: .high, compromisedCredentialsDetected: false),
                    verdict: enforced ? .block(ThreatProtectionError.blockedAddress) : .allow)
            }
        }
        let compromisedSetting = configuration?.compromisedCredentialsRiskConfiguration
        let checksSignIn = compromisedSetting.map { $0.eventFilter?.contains(.signIn) ?? true } ?? false
        if signals.compromisedPassword, checksSignIn {
            let blocks = compromisedSetting?.actions.eventAction == .block
            return RiskAssessment(
                eventRisk: EventRiskType(
                    riskDecision: blocks ? .block : .noRisk, riskLevel: .high, compromisedCredentialsDetected: true),
                verdict: enforced && blocks ? .block(ThreatProtectionError.riskBlocked) : .allow)
        }
        let level: RiskLevelType? = switch (signals.unfamiliarAddress, signals.recentFailures >= threshold) {
        case (true, true): .high
        case (false, true): .medium
        case (true, false): .low
        case (false, false): nil
        }
        guard let level else {
            return RiskAssessment(eventRisk: EventRiskType(riskDecision: .noRisk, compromisedCredentialsDetected: false))
        }
        let actions = configuration?.accountTakeoverRiskConfiguration?.actions
        let action = switch level {
        case .high: actions?.highAction
        case .medium: actions?.mediumAction
        default: actions?.lowAction
        }
        var assessment = RiskAssessment(
            eventRisk: EventRiskType(riskDecision: .accountTakeover, riskLevel: level, compromisedCredentialsDetected: false))
        guard enforced, let action else { return assessment }
        assessment.notify = action.notify
        switch action.eventAction {
        case .block: assessment.verdict = .block(ThreatProtectionError.riskBlocked)
        case .mfaRequired: assessment.verdict = .requireMfa(orBlock: true)
        case .mfaIfConfigured: assessment.verdict = .requireMfa(orBlock: false)
        default: break
        }
        return assessment
    }

    private static func listed(_ address: String, in ranges: [String]?) -> Bool {
        (ranges ?? []).contains { IPRange($0)?.contains(address) ?? false }
    }
}
