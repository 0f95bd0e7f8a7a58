import CognateProtocol
import Foundation

/// The hosted pages of choice-based sign-in (USER_AUTH): the account's name first, then one of
/// the first factors the user is offered — a passkey, a code by email or SMS, the password —
/// each a page. Which factors, and what each begins, is ``ChoiceSignIn``'s, reached through
/// ``SignIn`` as InitiateAuth and RespondToAuthChallenge reach it: the pages carry the user's
/// answers and nothing else, so a name that is no user (PreventUserExistenceErrors) is shown
/// the pages its decoy answers have the shape of.
///
/// A pool and client sign in this way when the pool allows a first factor besides PASSWORD
/// (`Policies.SignInPolicy.AllowedFirstAuthFactors`) and the client allows `ALLOW_USER_AUTH`,
/// as Cognito's managed login asks; otherwise the sign-in page asks for the name and the
/// password together (USER_PASSWORD_AUTH semantics).
struct HostedChoiceSignIn: Sendable {
    let signIn: SignIn
}

/// What a page of choice-based sign-in leads to.
enum HostedChoiceStep: Sendable {
    /// A step of the sign-in taken: its outcome; `offered`: the factors to choose from (the
    /// name's, as AvailableChallenges lists them); `firstFactor`: a code was sent that signs in
    /// alone (not a second factor after the password).
    case outcome(AuthOutcome, offered: [ChallengeNameType]?, firstFactor: Bool)
    /// The next page, with no step taken (the password chosen: its page).
    case page(HostedFlowState)
}

extension HostedChoiceSignIn {
    static func applies(to pool: PoolRecord, client: ClientRecord) -> Bool {
        FirstFactors.allowed(in: pool) != [.password] && ClientSettings.allowedFlows(client.settings).contains(.allowUserAuth)
    }

    /// The factors a page offers, in its order: a passkey, codes, the password (PASSWORD_SRP
    /// is the password too, and a page has no SRP).
    static func pageFactors(_ offered: [ChallengeNameType]) -> [String] {
        [ChallengeNameType.webAuthn, .emailOtp, .smsOtp, .password].filter(offered.contains).map(\.rawValue)
    }

    /// The answer of a page of choice-based sign-in (`state`: the page shown, `form`: what it
    /// sent); nil for a page that is none (a second factor's, a new password's: answered as
    /// after any password). `other` (Choose another way) asks for the name's factors again.
    func answer(_ state: HostedFlowState, form: [String: String], pool: PoolRecord, client: ClientRecord) async throws
        -> HostedChoiceStep?
    {
        let username = state.username ?? ""
        let challenge = state.challenge.map(ChallengeNameType.init(rawValue:))
        let firstFactorCode = challenge == .smsOtp || (challenge == .emailOtp && state.page?.firstFactor == true)
        switch challenge {
        case nil:
            return try await start(form["username"] ?? "", pool: pool, client: client)
        case .selectChallenge? where form["other"] == nil:
            let factor = ChallengeNameType(rawValue: form["factor"] ?? "")
            if factor == .password {
                var next = state
                next.challenge = ChallengeNameType.password.rawValue
                return .page(next)
            }
            return try await begin(factor, state: state, pool: pool, client: client)
        case .password? where form["other"] == nil:
            return try await begin(.password, state: state, extra: [AuthParameter.password: form["password"] ?? ""], pool: pool,
                                   client: client)
        case .webAuthn? where form["other"] == nil:
            var responses = [AuthParameter.username: username, "CREDENTIAL": form["credential"] ?? ""]
            responses[AuthParameter.secretHash] = client.hostedSecretHash(for: username)
            return .outcome(try await signIn.respond(
                to: .webAuthn, responses: responses, session: state.session, clientMetadata: nil, pool: pool, client: client),
                offered: nil, firstFactor: false)
        case _? where firstFactorCode && form["resend"] != nil:
            return try await start(username, preferred: challenge, pool: pool, client: client)
        case _? where form["other"] != nil && (state.page?.offered != nil || firstFactorCode):
            return try await start(username, pool: pool, client: client)
        default:
            return nil
        }
    }

    /// The passkey page again, with a new challenge (the last one's answer failed, and used it up).
    func retryPasskey(_ state: HostedFlowState, pool: PoolRecord, client: ClientRecord) async throws -> HostedChoiceStep {
        try await start(state.username ?? "", preferred: .webAuthn, pool: pool, client: client)
    }

    /// `factor` begun: the answer to the SELECT_CHALLENGE of the name page (`state.session`),
    /// or — that session used or expired (a wrong password uses it up) — a new USER_AUTH that
    /// prefers the factor.
    private func begin(_ factor: ChallengeNameType, state: HostedFlowState, extra: [String: String] = [:],
                       pool: PoolRecord, client: ClientRecord) async throws -> HostedChoiceStep {
        let username = state.username ?? ""
        if let session = state.session {
            var responses = extra.merging([AuthParameter.username: username, "ANSWER": factor.rawValue]) { $1 }
            responses[AuthParameter.secretHash] = client.hostedSecretHash(for: username)
            do {
                let outcome = try await signIn.respond(
                    to: .selectChallenge, responses: responses, session: session, clientMetadata: nil, pool: pool, client: client)
                return .outcome(outcome, offered: nil, firstFactor: [.emailOtp, .smsOtp].contains(factor))
            } catch let error as CognitoError where error == AuthSessions.invalid || error == AuthSessions.expired {}
        }
        return try await start(username, preferred: factor, extra: extra, pool: pool, client: client)
    }

    /// InitiateAuth USER_AUTH for `username`: with `preferred`, that factor begins when the user
    /// is offered it; without, the user is asked to choose (SELECT_CHALLENGE).
    private func start(_ username: String, preferred: ChallengeNameType? = nil, extra: [String: String] = [:],
                       pool: PoolRecord, client: ClientRecord) async throws -> HostedChoiceStep {
        var parameters = extra.merging([AuthParameter.username: username]) { $1 }
        parameters[AuthParameter.secretHash] = client.hostedSecretHash(for: username)
        parameters[ChoiceSignIn.preferredChallenge] = preferred?.rawValue
        let (outcome, offered) = try await signIn.userAuth(
            parameters, session: nil, clientMetadata: nil, pool: pool, client: client)
        return .outcome(outcome, offered: offered, firstFactor: preferred.map { [.emailOtp, .smsOtp].contains($0) } ?? false)
    }
}
