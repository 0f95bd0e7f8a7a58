import CognateProtocol
import Foundation

extension SignInCompletion {
    /// A password or SRP sign-in in a pool with threat protection, inside its transaction: the
    /// password verdict as always (lockout, failure count), then the risk of a right password
    /// (`RiskAssessment`) decides — blocked, asked for MFA even on a remembered device, or let
    /// through — and the attempt is recorded as a SignIn auth event whatever the outcome
    /// (blocked and failed attempts too: the transaction commits before their error).
    /// `password`: the password in clear when the flow carried it (not SRP), for the
    /// compromised-credentials check.
    func screenedSignIn(_ checked: UserRecord, correct: Bool, password: String?, pool: PoolRecord, client: ClientRecord,
                        device: String?, in transaction: any StoreTransaction) async throws -> FirstFactorResult {
        var event = authEvents.newAuthEvent(.signIn)
        let user: UserRecord, standing: SignInStanding
        do {
            (user, standing) = try await settlePasswordVerdict(checked, correct: correct, in: transaction)
        } catch let failure as CommitAndFail {
            event.eventResponse = .fail
            event.challengeResponses = [ChallengeResponseType(challengeName: .password, challengeResponse: .failure)]
            event.eventRisk = EventRiskType(riskDecision: .noRisk, compromisedCredentialsDetected: false)
            try await authEvents.recordAuthEvent(event, of: checked, pool: pool, in: transaction)
            throw failure
        }
        event.challengeResponses = [ChallengeResponseType(challengeName: .password, challengeResponse: .success)]
        let signals = try await signInSignals(
            of: user, failures: standing.lockout?.failures ?? 0, password: password, in: transaction)
        let assessment = RiskAssessment.assess(
            signals, configuration: pool.riskConfiguration(clientId: client.clientId),
            enforced: pool.threatProtection == .enforced)
        event.eventRisk = assessment.eventRisk
        let outcome: Result<FirstFactorResult, CommitAndFail>
        do {
            switch assessment.verdict {
            case .block(let error):
                throw CommitAndFail(error)
            case .requireMfa(let orBlock):
                outcome = .success(try await completeFirstFactor(
                    user, groups: standing.groups, pool: pool, client: client, device: device,
                    riskDemandsMfa: orBlock ? .required : .ifConfigured, in: transaction))
            case .allow:
                outcome = .success(try await completeFirstFactor(
                    user, groups: standing.groups, pool: pool, client: client, device: device, in: transaction))
            }
        } catch let failure as CommitAndFail {
            outcome = .failure(failure)
        }
        return try await recordScreened(
            outcome, event: event, assessment: assessment, user: user, pool: pool, client: client, in: transaction)
    }

    /// What follows a passwordless first factor proved (a one-time code, a passkey), inside its
    /// transaction: no second factor is asked for (passwordless factors are only offered where
    /// none applies, or a passkey with user verification stands for one), else as
    /// ``completeFirstFactor(_:groups:pool:client:askingForMfa:device:deviceProved:riskDemandsMfa:in:)``.
    /// In a pool with threat protection the sign-in is assessed as a password's is — a
    /// blocked one, or one that would need a second factor the sign-in cannot ask for, is
    /// refused — and recorded as a SignIn auth event naming the factor.
    func completePasswordless(_ user: UserRecord, factor: ChallengeNameType, pool: PoolRecord, client: ClientRecord,
                              device: String?, in transaction: any StoreTransaction) async throws -> FirstFactorResult {
        guard pool.threatProtection != .off else {
            return try await completeFirstFactor(
                user, pool: pool, client: client, askingForMfa: false, device: device, in: transaction)
        }
        var event = authEvents.newAuthEvent(.signIn)
        event.challengeResponses = [ChallengeResponseType(challengeName: ChallengeName(rawValue: factor.rawValue), challengeResponse: .success)]
        let standing = try await transaction.signInStanding(poolId: user.poolId, sub: user.sub)
        let signals = try await signInSignals(of: user, failures: standing.lockout?.failures ?? 0, password: nil, in: transaction)
        let assessment = RiskAssessment.assess(
            signals, configuration: pool.riskConfiguration(clientId: client.clientId),
            enforced: pool.threatProtection == .enforced)
        event.eventRisk = assessment.eventRisk
        let outcome: Result<FirstFactorResult, CommitAndFail>
        do {
            switch assessment.verdict {
            case .block(let error): throw CommitAndFail(error)
            case .requireMfa(true): throw CommitAndFail(ThreatProtectionError.riskBlocked)
            case .requireMfa(false), .allow:
                outcome = .success(try await completeFirstFactor(
                    user, groups: standing.groups, pool: pool, client: client, askingForMfa: false, device: device,
                    in: transaction))
            }
        } catch let failure as CommitAndFail {
            outcome = .failure(failure)
        }
        return try await recordScreened(
            outcome, event: event, assessment: assessment, user: user, pool: pool, client: client, in: transaction)
    }

    /// A screened sign-in's end: its auth event recorded with the outcome (and the risk
    /// notification queued where the assessment asks for one), then the outcome.
    private func recordScreened(_ outcome: Result<FirstFactorResult, CommitAndFail>, event: AuthEventType,
                                assessment: RiskAssessment, user: UserRecord, pool: PoolRecord, client: ClientRecord,
                                in transaction: any StoreTransaction) async throws -> FirstFactorResult {
        var event = event
        switch outcome {
        case .success(.tokens): event.eventResponse = .pass
        case .success: event.eventResponse = .inProgress
        case .failure: event.eventResponse = .fail
        }
        let feedbackToken = try await authEvents.recordAuthEvent(event, of: user, pool: pool, in: transaction)
        if assessment.notify {
            try await authEvents.queueRiskNotification(
                event, feedbackToken: feedbackToken, user: user, pool: pool, client: client, in: transaction)
        }
        return try outcome.get()
    }

    /// The signals of `RiskAssessment`: the caller's address against the user's recent
    /// successful sign-ins, the wrong passwords before this one, the breached-password list.
    private func signInSignals(of user: UserRecord, failures: Int, password: String?,
                               in transaction: any StoreTransaction) async throws -> SignInSignals {
        var signals = SignInSignals(address: RequestOrigin.clientAddress, recentFailures: failures)
        signals.compromisedPassword = password.map { configuration.breachedPasswords.contains(password: $0) } ?? false
        if let address = signals.address {
            let recent = try await transaction.authEvents(poolId: user.poolId, userSub: user.sub, after: nil, limit: 50).items
                .map(\.event).filter { $0.eventType == .signIn && $0.eventResponse == .pass }
            signals.unfamiliarAddress = !recent.isEmpty && !recent.contains { $0.eventContextData?.ipAddress == address }
        }
        return signals
    }
}
