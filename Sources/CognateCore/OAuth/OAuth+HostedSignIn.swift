import CognateProtocol
import Foundation

extension OAuth {
    /// How long one page of a hosted sign-in may stay open.
    static let hostedFlowLifetime: TimeInterval = 900

    /// Starts a hosted sign-in for a validated authorization request, in `browser`: in a single
    /// sign-on session of the pool (`session`, the browser's ``HostedSessions`` cookie) and
    /// without `prompt=login`, the app's code at once; else the sign-in page (stored nowhere:
    /// its flow is sealed, see ``SealedFlows``), or with `prompt=none` the app's `login_required`.
    /// A client named by its metadata document's URL never signs in through the session: anyone
    /// can host a document a policy admits, and a page of theirs would otherwise get the codes of
    /// every signed-in visitor without a click; the user signs in on the page each time.
    public func beginHostedSignIn(_ request: AuthorizationRequest, browser: BrowserBinding, session: String? = nil)
        async throws -> HostedSignInStep
    {
        let (pool, client) = try await directory.requireClient(request.clientId)
        if request.purpose == nil, request.prompt != "login", request.metadataURL == nil,
            let tokens = await hostedSessions.signIn(session, browser: browser, pool: pool, client: client)
        {
            return .redirect(try await finishHostedSignIn(request, tokens: tokens, pool: pool, client: client))
        }
        if request.prompt == "none" {
            throw AuthorizationRedirectError(
                redirectURI: request.redirectURI, state: request.state,
                error: OAuthError("login_required", "The user is not signed in on the hosted pages."))
        }
        return try await firstHostedPage(HostedFlowState(request: request), browser: browser, pool: pool, client: client)
    }

    /// One submitted page of a hosted sign-in (`form`: its fields), from `browser`. The user's
    /// answers go through the same sign-in as the API's (USER_PASSWORD_AUTH semantics, or
    /// USER_AUTH's where the pool and client sign in by choice — ``HostedChoiceSignIn``;
    /// lockout, MFA, new password, triggers); a stored flow is used up and a new one returned
    /// with the next page, or the browser is sent back to the app. An expired or unknown flow,
    /// or one started in another browser, throws ``AuthorizationPageError``.
    public func continueHostedSignIn(flow: String, form: [String: String], browser: BrowserBinding) async throws
        -> HostedSignInStep
    {
        let opened: (PoolRecord, ClientRecord, HostedFlowState)?
        if SealedFlows.isSealed(flow) {
            opened = await sealedFlows.open(flow, now: time.now).asyncFlatMap { state in
                (try? await directory.requireClient(state.request.clientId)).map { ($0.0, $0.1, state) }
            }
        } else {
            opened = await consumeFlow(flow, challenge: .hostedSignIn, as: HostedFlowState.self, browser: browser).opened
        }
        guard let (pool, client, state) = opened, browser.matches(state.binding) else {
            throw AuthorizationPageError(message: "This sign-in page has expired. Go back to the app and start again.",
                                         reason: .expired)
        }
        RequestOrigin.hostedStep?.record(clientId: client.clientId)
        // Every posted step counts against the per-client and per-address limit before its
        // answer is judged, so a limited caller learns nothing of a password or code.
        try await store.write { try await self.allowances.consumeRequestAllowance(.hostedFlows, client: client, in: $0) }
        if state.stage != .addPasskey { try Self.requireOwnSignIn(client, request: state.request) }
        switch state.stage {
        case .signUp?, .confirmSignUp?:
            return try await continueHostedSignUp(state, form: form, pool: pool, client: client)
        case .forgotPassword?, .resetPassword?:
            return try await continueHostedRecovery(state, form: form, pool: pool, client: client)
        case .addPasskey?:
            return try await continuePasskeyAddition(state, form: form, pool: pool, client: client)
        case nil: break
        }
        let choosing = HostedChoiceSignIn.applies(to: pool, client: client)
        let step: HostedChoiceStep
        do {
            if choosing, let answered = try await choice.answer(state, form: form, pool: pool, client: client) {
                step = answered
            } else {
                step = .outcome(try await hostedAnswer(state, form: form, pool: pool, client: client), offered: nil,
                                firstFactor: false)
            }
        } catch let error as CognitoError {
            return try await refusedHostedStep(state, error: error, form: form, choosing: choosing, pool: pool, client: client)
        }
        switch step {
        case .page(let next):
            return try await hostedPage(next, error: nil, pool: pool, client: client)
        case .outcome(.tokens(let tokens), _, _):
            return try await completeHostedSignIn(state, tokens: tokens, pool: pool, client: client)
        case .outcome(let outcome, let offered, let firstFactor):
            var next = try await nextHostedState(
                after: outcome, from: state, form: form, offered: offered, firstFactor: firstFactor)
            if form["resend"] != nil, next.page?.firstFactor == true {
                let destination = next.page?.destination
                next.page?.notice = HostedPageContent.newCodeNotice(destination)
            }
            return try await hostedPage(next, error: nil, pool: pool, client: client)
        }
    }

    /// Sends the page's answer through the sign-in: the password first, then each challenge.
    private func hostedAnswer(_ state: HostedFlowState, form: [String: String], pool: PoolRecord, client: ClientRecord)
        async throws -> AuthOutcome
    {
        guard let challenge = state.challenge else {
            let username = form["username"] ?? ""
            var parameters = [AuthParameter.username: username, AuthParameter.password: form["password"] ?? ""]
            parameters[AuthParameter.secretHash] = client.hostedSecretHash(for: username)
            try AuthParameter.checkBounds(parameters, member: "form")
            return try await signIn.passwordAuth(parameters, clientMetadata: nil, pool: pool, client: client)
        }
        let username = state.username ?? ""
        var responses = [AuthParameter.username: username]
        responses[AuthParameter.secretHash] = client.hostedSecretHash(for: username)
        let name = ChallengeNameType(rawValue: challenge)
        switch name {
        case .softwareTokenMfa: responses["SOFTWARE_TOKEN_MFA_CODE"] = form["code"] ?? ""
        case .smsMfa: responses["SMS_MFA_CODE"] = form["code"] ?? ""
        case .emailOtp: responses["EMAIL_OTP_CODE"] = form["code"] ?? ""
        case .smsOtp: responses["SMS_OTP_CODE"] = form["code"] ?? ""
        case .selectMfaType: responses["ANSWER"] = form["factor"] ?? ""
        case .mfaSetup:
            let verified = try await mfaSettings.verifySoftwareToken(VerifySoftwareTokenRequest(
                session: state.session, userCode: form["code"] ?? "", friendlyDeviceName: "Authenticator app"))
            return try await signIn.respond(to: name, responses: responses, session: verified.session, clientMetadata: nil,
                                     pool: pool, client: client)
        case .newPasswordRequired:
            responses["NEW_PASSWORD"] = form["new_password"] ?? ""
            for attribute in state.page?.requiredAttributes ?? [] {
                responses["userAttributes.\(attribute)"] = form["attribute.\(attribute)"] ?? ""
            }
        default: break
        }
        return try await signIn.respond(to: name, responses: responses, session: state.session, clientMetadata: nil, pool: pool, client: client)
    }

    /// The page after a challenge: its name and session, what the page shows of it (where a
    /// code went, the attributes a new password needs, the factors to choose from, a passkey's
    /// options) and, in choice-based sign-in, the name as typed and the factors offered.
    private func nextHostedState(after outcome: AuthOutcome, from state: HostedFlowState, form: [String: String],
                                 offered: [ChallengeNameType]?, firstFactor: Bool) async throws -> HostedFlowState {
        guard case .challenge(let name, let parameters, let session) = outcome else { return state }
        var next = HostedFlowState(
            request: state.request, binding: state.binding,
            username: parameters["USER_ID_FOR_SRP"] ?? parameters["USERNAME"] ?? state.username ?? form["username"],
            challenge: name.rawValue, session: session,
            page: HostedPageState(
                destination: parameters["CODE_DELIVERY_DESTINATION"],
                requiredAttributes: Self.jsonStrings(parameters["requiredAttributes"])?.map {
                    $0.hasPrefix("userAttributes.") ? String($0.dropFirst("userAttributes.".count)) : $0
                },
                factors: Self.jsonStrings(parameters["MFAS_CAN_CHOOSE"]),
                options: parameters["CREDENTIAL_REQUEST_OPTIONS"]))
        // Choice-based sign-in: the name as typed, and the factors offered, on its own pages.
        if name == .selectChallenge || name == .webAuthn || name == .smsOtp || (name == .emailOtp && firstFactor) {
            next.page?.name = state.page?.name ?? form["username"]
            next.page?.offered = offered.map(HostedChoiceSignIn.pageFactors) ?? state.page?.offered
            next.page?.firstFactor = name == .emailOtp || name == .smsOtp ? true : nil
        }
        // The authenticator app to set up: its secret now, its first code on the next page. The
        // pages set up nothing else: without the app on offer (email MFA alone), the page says
        // to sign in in the app.
        let setup = Self.jsonStrings(parameters["MFAS_CAN_SETUP"]) ?? []
        if name == .mfaSetup, setup.contains(ChallengeNameType.softwareTokenMfa.rawValue) {
            let associated = try await mfaSettings.associateSoftwareToken(AssociateSoftwareTokenRequest(session: session))
            next.session = associated.session
            next.page?.secret = associated.secretCode
        }
        return next
    }

    /// A page refused by the sign-in: shown again with the message. A challenge whose session
    /// ended starts over; a password or a passkey answered by choice starts its factor anew
    /// (its answer used the session up); a refused name page keeps the name typed.
    private func refusedHostedStep(_ state: HostedFlowState, error: CognitoError, form: [String: String], choosing: Bool,
                                   pool: PoolRecord, client: ClientRecord) async throws -> HostedSignInStep {
        var retry = state
        retry.page?.notice = nil
        let challenge = state.challenge.map(ChallengeNameType.init(rawValue:))
        if challenge == nil {
            retry.username = form["username"]              // shown again in the form
        } else if choosing, challenge == .webAuthn, form["other"] == nil,
            let again = try? await choice.retryPasskey(state, pool: pool, client: client),
            case .outcome(let outcome, let offered, _) = again
        {
            retry = try await nextHostedState(after: outcome, from: state, form: form, offered: offered, firstFactor: false)
        } else if error == AuthSessions.invalid || error == AuthSessions.expired {
            retry = HostedFlowState(request: state.request, binding: state.binding)
        } else if choosing, challenge == .password {
            retry.session = nil                             // a wrong password used the choice up
        }
        return try await hostedPage(retry, refusal: error, form: form, pool: pool, client: client)
    }

    /// A hosted sign-in done: the browser goes back to the app (or, on `/passkeys/add`, on to
    /// the page adding a passkey), keeping the single sign-on session and, where the pool has
    /// passkeys, a proof of the sign-in.
    private func completeHostedSignIn(_ state: HostedFlowState, tokens: IssuedTokens, pool: PoolRecord,
                                      client: ClientRecord) async throws -> HostedSignInStep {
        let signIn = try await tokens.originJti.asyncFlatMap {
            try await RecentSignIn.of(family: $0, pool: pool, binding: state.binding, in: store)
        }
        let proof = signIn.flatMap { passkeyAddition.proof(of: $0, pool: pool) }
        let session = try signIn.map(hostedSessions.seal)
        let next: HostedSignInStep
        if state.request.purpose == .addPasskey {
            guard let proof else {
                throw AuthorizationPageError(message: "The user pool no longer allows passkeys.", reason: .passkeysUnavailable)
            }
            next = try await passkeyAdditionPage(
                for: try await passkeyAddition.caller(proof, pool: pool, client: client), proof: proof,
                request: state.request, error: nil, pool: pool, client: client)
        } else {
            next = .redirect(try await finishHostedSignIn(state.request, tokens: tokens, pool: pool, client: client))
        }
        return .signedIn(proof: try proof.map(passkeyAddition.seal), session: session, then: next)
    }

    /// The first page of a flow for `browser`: sealed into the page, nothing stored.
    func firstHostedPage(_ state: HostedFlowState, browser: BrowserBinding, pool: PoolRecord, client: ClientRecord)
        async throws -> HostedSignInStep
    {
        var state = state
        state.binding = browser.digest
        let flow = try sealedFlows.seal(state, expires: time.now + Self.hostedFlowLifetime)
        let page = try HostedPageContent.page(
            state, error: nil, values: [:], pool: pool, choosing: HostedChoiceSignIn.applies(to: pool, client: client))
        return .page(page, flow: flow, request: state.request)
    }

    /// Stores `state` as a new flow and returns the page it shows; `form`: the refused form,
    /// whose values that are no secret the page shows again.
    func hostedPage(_ state: HostedFlowState, error: String? = nil, refusal: CognitoError? = nil,
                    form: [String: String] = [:], pool: PoolRecord, client: ClientRecord) async throws -> HostedSignInStep
    {
        if let refusal {
            RequestOrigin.hostedStep?.refuse(refusal.code.rawValue)
        } else if error != nil {
            RequestOrigin.hostedStep?.refuse("refused")
        }
        let page = try HostedPageContent.page(
            state, error: error ?? refusal?.message, values: HostedPageContent.keptValues(form), pool: pool,
            choosing: HostedChoiceSignIn.applies(to: pool, client: client))
        let flow = try await store.write { transaction in
            try await self.openHostedFlow(state, pool: pool, client: client, in: transaction)
        }
        return .page(page, flow: flow, request: state.request)
    }

    /// The flow `token` names (a hosted page's, a federated sign-in's), with its pool and
    /// client, used up only when `browser` is the one it was started in: a flow posted from
    /// another browser is left for its own (``FlowLookup/otherBrowser``), so knowing a flow's
    /// token is not enough to end someone else's sign-in. `missing` when it is unknown,
    /// expired, of another kind or already used.
    func consumeFlow<State: BrowserBoundFlow>(_ token: String, challenge: PendingStep, as: State.Type,
                                               browser: BrowserBinding?) async -> FlowLookup<State>
    {
        guard let record = try? await store.read({ try await $0.authSession(tokenHash: AuthSessions.hash(token)) }),
            let (pool, client) = try? await directory.requireClient(record.clientId)
        else { return .missing }
        do {
            let state = try await store.write { transaction -> State? in
                let pending = try await authSessions.readAuthSession(
                    token, challenge: challenge, as: State.self, pool: pool, client: client, in: transaction)
                guard let browser, browser.matches(pending.state.binding) else { return nil }
                try await authSessions.consumeAuthSession(pending.record, in: transaction)
                return pending.state
            }
            guard let state else { return .otherBrowser }
            return .opened(pool, client, state)
        } catch {
            return .missing
        }
    }

    /// The pool's own sign-in, sign-up and reset pages serve only clients that offer it
    /// (`COGNITO` among SupportedIdentityProviders); the others' users sign in through a provider.
    static func requireOwnSignIn(_ client: ClientRecord, request: AuthorizationRequest) throws {
        guard (client.settings.supportedIdentityProviders ?? []).contains("COGNITO") else {
            throw AuthorizationPageError(
                message: "This app signs in through its identity providers only.", reason: .invalidRequest, request: request)
        }
    }

    /// Stores a flow. What stores one is counted against the caller's address beforehand (at
    /// most `RateLimitSettings.hostedFlowsPerMinute` per app client and address): every posted
    /// step before its answer is judged, and `/passkeys/add`'s first page.
    func openHostedFlow(_ state: HostedFlowState, pool: PoolRecord, client: ClientRecord,
                        in transaction: any StoreTransaction) async throws -> String {
        try await authSessions.openAuthSession(
            .hostedSignIn, state: state, user: nil, pool: pool, client: client, encoding: .session,
            lifetime: Self.hostedFlowLifetime, in: transaction)
    }

    private static func jsonStrings(_ text: String?) -> [String]? {
        text.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
    }
}
