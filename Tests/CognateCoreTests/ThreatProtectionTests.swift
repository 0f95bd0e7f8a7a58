import CognateProtocol
import Crypto
import Foundation
import Testing

@testable import CognateCore

struct ThreatProtectionTests {
    static func takeover(low: AccountTakeoverEventActionType, medium: AccountTakeoverEventActionType,
                         high: AccountTakeoverEventActionType) -> RiskConfigurationType {
        RiskConfigurationType(accountTakeoverRiskConfiguration: AccountTakeoverRiskConfigurationType(
            actions: AccountTakeoverActionsType(
                lowAction: AccountTakeoverActionType(notify: false, eventAction: low),
                mediumAction: AccountTakeoverActionType(notify: true, eventAction: medium),
                highAction: AccountTakeoverActionType(notify: false, eventAction: high))))
    }

    @Test func signalsMapToLevelsAndLevelsToTheirActions() {
        let configuration = Self.takeover(low: .mfaIfConfigured, medium: .mfaRequired, high: .block)
        func assess(unfamiliar: Bool, failures: Int, enforced: Bool = true) -> RiskAssessment {
            RiskAssessment.assess(
                SignInSignals(address: "192.0.2.1", unfamiliarAddress: unfamiliar, recentFailures: failures),
                configuration: configuration, enforced: enforced)
        }
        let calm = assess(unfamiliar: false, failures: 2)
        #expect(calm.eventRisk.riskDecision == .noRisk && calm.eventRisk.riskLevel == nil && calm.verdict == .allow)
        let low = assess(unfamiliar: true, failures: 0)
        #expect(low.eventRisk.riskLevel == .low && low.verdict == .requireMfa(orBlock: false) && !low.notify)
        let medium = assess(unfamiliar: false, failures: 3)
        #expect(medium.eventRisk.riskLevel == .medium && medium.verdict == .requireMfa(orBlock: true) && medium.notify)
        let high = assess(unfamiliar: true, failures: 7)
        #expect(high.eventRisk.riskDecision == .accountTakeover && high.verdict == .block(ThreatProtectionError.riskBlocked))
        // Audit mode sees the same risk and acts on none of it.
        let audited = assess(unfamiliar: true, failures: 7, enforced: false)
        #expect(audited.eventRisk == high.eventRisk && audited.verdict == .allow && !audited.notify)
    }

    @Test func addressExceptionsComeFirstAndCompromisedPasswordsNext() {
        var configuration = Self.takeover(low: .block, medium: .block, high: .block)
        configuration.riskExceptionConfiguration = RiskExceptionConfigurationType(
            blockedIPRangeList: ["203.0.113.0/24"], skippedIPRangeList: ["198.51.100.0/24", "2001:db8::/32"])
        configuration.compromisedCredentialsRiskConfiguration = CompromisedCredentialsRiskConfigurationType(
            eventFilter: [.signIn], actions: CompromisedCredentialsActionsType(eventAction: .block))
        let risky = SignInSignals(address: nil, unfamiliarAddress: true, recentFailures: 9, compromisedPassword: true)
        func verdict(from address: String) -> RiskAssessment.Verdict {
            var signals = risky
            signals.address = address
            return RiskAssessment.assess(signals, configuration: configuration, enforced: true).verdict
        }
        #expect(verdict(from: "198.51.100.200") == .allow)
        #expect(verdict(from: "2001:db8:1::5") == .allow)
        #expect(verdict(from: "203.0.113.9") == .block(ThreatProtectionError.blockedAddress))
        #expect(verdict(from: "::ffff:203.0.113.9") == .block(ThreatProtectionError.blockedAddress))
        let compromised = RiskAssessment.assess(
            SignInSignals(address: "192.0.2.1", compromisedPassword: true), configuration: configuration, enforced: true)
        #expect(compromised.eventRisk.compromisedCredentialsDetected == true)
        #expect(compromised.verdict == .block(ThreatProtectionError.riskBlocked))
        configuration.compromisedCredentialsRiskConfiguration?.eventFilter = [.signUp]   // not checked at sign-in
        let unchecked = RiskAssessment.assess(
            SignInSignals(address: "192.0.2.1", compromisedPassword: true), configuration: configuration, enforced: true)
        #expect(unchecked.eventRisk.compromisedCredentialsDetected == false && unchecked.verdict == .allow)
    }

    @Test func ipRangesParseAndMatchBitByBit() {
        #expect(IPRange("10.0.0.0/8")?.contains("10.255.1.2") == true)
        #expect(IPRange("10.0.0.0/8")?.contains("11.0.0.1") == false)
        #expect(IPRange("192.0.2.128/25")?.contains("192.0.2.127") == false)
        #expect(IPRange("192.0.2.128/25")?.contains("192.0.2.200") == true)
        #expect(IPRange("0.0.0.0/0")?.contains("8.8.8.8") == true)
        #expect(IPRange("2001:db8::/33")?.contains("2001:db8:8000::1") == false)
        #expect(IPRange("10.0.0.0/8")?.contains("not an address") == false)
        for invalid in ["10.0.0.0", "10.0.0.0/33", "2001:db8::/129", "host/8", "10.0.0.0/-1", ""] {
            #expect(IPRange(invalid) == nil, "\(invalid)")
        }
    }

    @Test func breachedPasswordsTakeDigestsOrClearTextAndSearchSorted() {
        let sha1 = Insecure.SHA1.hash(data: Data("from-hibp".utf8)).map { String(format: "%02X", $0) }.joined()
        let list = BreachedPasswords(lines: ["password123", "\(sha1):1234", "", "password123", "letmein\r"])
        #expect(list.count == 3)
        #expect(list.contains(password: "password123") && list.contains(password: "from-hibp"))
        #expect(list.contains(password: "letmein"))
        #expect(!list.contains(password: "Password123") && !list.contains(password: ""))
        #expect(!BreachedPasswords.empty.contains(password: "password123"))
    }

    @Test func eventIdsSortByTime() {
        let earlier = AuthEventRecorder.timeOrderedId(Date(timeIntervalSince1970: 1_700_000_000), random: Array(repeating: 0xFF, count: 10))
        let later = AuthEventRecorder.timeOrderedId(Date(timeIntervalSince1970: 1_700_000_000.001), random: Array(repeating: 0, count: 10))
        #expect(earlier < later)
        #expect(UUID(uuidString: earlier) != nil && earlier.count == 36 && Array(earlier)[14] == "7")
    }
}
