import CognateProtocol
import Foundation

extension SignIn {
    /// USER_AUTH (choice-based sign-in, ``ChoiceSignIn``), for clients that allow it: the
    /// outcome, and the factors the user was offered (`AvailableChallenges`, with a challenge).
    func userAuth(_ parameters: [String: String], session: String?, clientMetadata: [String: String]?, pool: PoolRecord,
                  client: ClientRecord) async throws -> (AuthOutcome, [ChallengeNameType]?) {
        do {
            try AuthParameter.checkBounds(parameters, member: "authParameters")
            guard ClientSettings.allowedFlows(client.settings).contains(.allowUserAuth) else {
                throw CognitoError.invalidParameter("USER_AUTH flow not enabled for this client")
            }
            let (step, available) = try await choice.start(
                parameters, session: session, clientMetadata: clientMetadata, pool: pool, client: client)
            let outcome = try await carryOut(step, clientMetadata: clientMetadata, pool: pool, client: client)
            if case .tokens = outcome {
                ServiceMetrics.signIn(flow: .userAuth, result: "tokens")
                return (outcome, nil)
            }
            ServiceMetrics.signIn(flow: .userAuth, result: "challenge")
            return (outcome, available)
        } catch {
            ServiceMetrics.signIn(flow: .userAuth, result: "failed")
            throw error
        }
    }

    /// A step of choice-based sign-in carried out: a password factor is checked as
    /// USER_PASSWORD_AUTH (PASSWORD) or begins as USER_SRP_AUTH does (PASSWORD_SRP), with the
    /// PreAuthentication function already run.
    func carryOut(_ step: ChoiceStep, clientMetadata: [String: String]?, pool: PoolRecord,
                  client: ClientRecord) async throws -> AuthOutcome {
        switch step {
        case .outcome(let outcome):
            return outcome
        case .password(.passwordSrp, let parameters):
            return try await startSRP(
                parameters, clientMetadata: clientMetadata, pool: pool, client: client, runsPreAuthentication: false)
        case .password(_, let parameters):
            return try await passwordAuth(
                parameters, clientMetadata: clientMetadata, pool: pool, client: client, runsPreAuthentication: false)
        }
    }
}
