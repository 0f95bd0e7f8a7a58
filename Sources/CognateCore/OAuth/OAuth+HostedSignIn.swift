import CognateProtocol
import Foundation

/// What a hosted page shows. `values`: what the user typed that is no secret (names and
/// attributes, never a password or a code), shown again when the page is refused; `rules`: the
/// pool's password policy in words.
public enum HostedPage: Sendable, Equatable {
    /// `notice`: what just happened (an account confirmed); `canSignUp`: whether the pool lets
    /// users sign themselves up (the page links to the sign-up page).
    case signIn(username: String?, name: HostedNameField, error: String?, notice: String? = nil, canSignUp: Bool = true)
    /// `attributes`: the pool's required attributes, asked besides the name and the password.
    case signUp(name: HostedNameField, attributes: [String], values: [String: String], rules: [String], error: String?)
    /// The sign-up code `destination` (masked) received; `resend` sends another.
    case confirmSignUp(destination: String?, error: String?, notice: String? = nil)
    /// The name of an account whose password was forgotten.
    case forgotPassword(name: HostedNameField, username: String?, error: String?)
    /// The reset code `destination` (masked) received, and the new password; `resend` sends another.
    case resetPassword(destination: String?, rules: [String], error: String?, notice: String? = nil)
    /// A second factor's code: `challenge` is SOFTWARE_TOKEN_MFA, SMS_MFA or EMAIL_OTP;
    /// `destination` where an SMS or email code went (masked).
    case code(challenge: String, destination: String?, error: String?)
    case newPassword(requiredAttributes: [String], values: [String: String], rules: [String], error: String?)
    /// MFA_SETUP: the new authenticator app's secret and its `otpauth://` URI (for a QR code).
    case totpSetup(secret: String, uri: String, error: String?)
    case selectFactor([String], error: String?)
}

/// The field that names the account, as the pool lets users name themselves.
public struct HostedNameField: Sendable, Equatable {
    public enum Kind: String, Sendable { case text, email, phone }
    /// "Username", "Email", "Phone number", "Username or email" …
    public var label: String
    public var kind: Kind

    public init(label: String, kind: Kind = .text) {
        self.label = label
        self.kind = kind
    }
}

/// Where a hosted sign-in stands after a step.
public enum HostedSignInStep: Sendable, Equatable {
    /// Show `page`; `flow` names the sign-in in progress (the form field and the flow cookie);
    /// `request` is the authorization request it answers (for links between the pages).
    case page(HostedPage, flow: String, request: AuthorizationRequest)
    /// Done: send the browser to this address (the app's redirect URI with the code, or with
    /// the tokens in the fragment for the implicit flow).
    case redirect(String)
}

/// The pages of a hosted sign-up or password reset (stored by these names in flows).
enum HostedStage: String, Codable, Sendable {
    case signUp
    case confirmSignUp
    case forgotPassword
    case resetPassword
}

/// A hosted sign-in in progress (a flow: persisted, expiring, one step at a time): the
/// authorization request it answers and the challenge it waits for, if any.
struct HostedFlowState: Codable, Sendable {
    var request: AuthorizationRequest
    /// The digest of the ``BrowserBinding`` the flow was started in; every step must come from it.
    var binding: String?
    /// Where a sign-up or a password reset stands; nil while signing in.
    var stage: HostedStage?
    var username: String?
    var challenge: String?
    var session: String?
    var page: HostedPageState?
}

/// What a challenge page needs to be shown again (with an error).
struct HostedPageState: Codable, Sendable {
    var notice: String?
    /// MFA_SETUP: the secret AssociateSoftwareToken gave.
    var secret: String?
    var destination: String?
    var requiredAttributes: [String]?
    var factors: [String]?
}

extension OAuth {
    /// How long one page of a hosted sign-in may stay open.
    static let hostedFlowLifetime: TimeInterval = 900

    /// Starts a hosted sign-in for a validated authorization request, in `browser`: the sign-in
    /// page (stored nowhere: its flow is sealed, see ``SealedFlows``).
    public func beginHostedSignIn(_ request: AuthorizationRequest, browser: BrowserBinding) async throws -> HostedSignInStep {
        let (pool, client) = try await directory.requireClient(request.clientId)
        return try await firstHostedPage(HostedFlowState(request: request), browser: browser, pool: pool, client: client)
    }

    /// One submitted page of a hosted sign-in (`form`: its fields), from `browser`. The user's
    /// answers go through the same sign-in as the API's (USER_PASSWORD_AUTH semantics, lockout,
    /// MFA, new password, triggers); a stored flow is used up and a new one returned with the
    /// next page, or the browser is sent back to the app. An expired or unknown flow, or one
    /// started in another browser, throws ``AuthorizationPageError``.
    public func continueHostedSignIn(flow: String, form: [String: String], browser: BrowserBinding) async throws
        -> HostedSignInStep
    {
        let opened: (PoolRecord, ClientRecord, HostedFlowState)?
        if SealedFlows.isSealed(flow) {
            opened = await sealedFlows.open(flow, now: time.now).asyncFlatMap { state in
                (try? await directory.requireClient(state.request.clientId)).map { ($0.0, $0.1, state) }
            }
        } else {
            opened = await consumeFlow(flow, challenge: .hostedSignIn, as: HostedFlowState.self)
        }
        guard let (pool, client, state) = opened, browser.matches(state.binding) else {
            throw AuthorizationPageError(message: "This sign-in page has expired. Go back to the app and start again.",
                                         reason: .expired)
        }
        switch state.stage {
        case .signUp?, .confirmSignUp?:
            return try await continueHostedSignUp(state, form: form, pool: pool, client: client)
        case .forgotPassword?, .resetPassword?:
            return try await continueHostedRecovery(state, form: form, pool: pool, client: client)
        default: break
        }
        let outcome: AuthOutcome
        do {
            outcome = try await hostedAnswer(state, form: form, pool: pool, client: client)
        } catch let error as CognitoError {
            // A challenge whose session ended starts over; anything else is shown on the same page.
            var retry = state
            retry.page?.notice = nil
            if state.challenge == nil {
                retry.username = form["username"]              // shown again in the form
            } else if error == AuthSessions.invalid || error == AuthSessions.expired {
                retry = HostedFlowState(request: state.request, binding: state.binding)
            }
            return try await hostedPage(retry, error: error.message, form: form, pool: pool, client: client)
        }
        switch outcome {
        case .tokens(let tokens):
            return .redirect(try await finishHostedSignIn(state.request, tokens: tokens, pool: pool, client: client))
        case .challenge(let name, let parameters, let session):
            var next = HostedFlowState(
                request: state.request, binding: state.binding,
                username: parameters["USER_ID_FOR_SRP"] ?? parameters["USERNAME"] ?? state.username ?? form["username"],
                challenge: name.rawValue, session: session,
                page: HostedPageState(
                    destination: parameters["CODE_DELIVERY_DESTINATION"],
                    requiredAttributes: Self.jsonStrings(parameters["requiredAttributes"])?.map {
                        $0.hasPrefix("userAttributes.") ? String($0.dropFirst("userAttributes.".count)) : $0
                    },
                    factors: Self.jsonStrings(parameters["MFAS_CAN_CHOOSE"])))
            if name == .mfaSetup {
                // The authenticator app to set up: its secret now, its first code on the next page.
                let associated = try await mfaSettings.associateSoftwareToken(AssociateSoftwareTokenRequest(session: session))
                next.session = associated.session
                next.page?.secret = associated.secretCode
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
            parameters[AuthParameter.secretHash] = hostedSecretHash(username, client)
            try AuthParameter.checkBounds(parameters, member: "form")
            return try await signIn.passwordAuth(parameters, clientMetadata: nil, pool: pool, client: client)
        }
        let username = state.username ?? ""
        var responses = [AuthParameter.username: username]
        responses[AuthParameter.secretHash] = hostedSecretHash(username, client)
        let name = ChallengeNameType(rawValue: challenge)
        switch name {
        case .softwareTokenMfa: responses["SOFTWARE_TOKEN_MFA_CODE"] = form["code"] ?? ""
        case .smsMfa: responses["SMS_MFA_CODE"] = form["code"] ?? ""
        case .emailOtp: responses["EMAIL_OTP_CODE"] = form["code"] ?? ""
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

    /// The first page of a flow for `browser`: sealed into the page, nothing stored.
    func firstHostedPage(_ state: HostedFlowState, browser: BrowserBinding, pool: PoolRecord, client: ClientRecord)
        async throws -> HostedSignInStep
    {
        var state = state
        state.binding = browser.digest
        let flow = try sealedFlows.seal(state, expires: time.now + Self.hostedFlowLifetime)
        return .page(try await hostedPageContent(state, error: nil, values: [:], pool: pool), flow: flow, request: state.request)
    }

    /// Stores `state` as a new flow and returns the page it shows; `form`: the refused form,
    /// whose values that are no secret the page shows again.
    func hostedPage(_ state: HostedFlowState, error: String?, form: [String: String] = [:], pool: PoolRecord,
                    client: ClientRecord) async throws -> HostedSignInStep
    {
        let page = try await hostedPageContent(state, error: error, values: Self.keptValues(form), pool: pool)
        let flow = try await store.write { transaction in
            try await self.openHostedFlow(state, pool: pool, client: client, in: transaction)
        }
        return .page(page, flow: flow, request: state.request)
    }

    /// What the page of `state` shows.
    private func hostedPageContent(_ state: HostedFlowState, error: String?, values: [String: String], pool: PoolRecord)
        async throws -> HostedPage
    {
        let rules = Self.passwordRules(pool.settings.policies?.passwordPolicy)
        switch state.challenge.map(ChallengeNameType.init(rawValue:)) {
        case nil where state.stage == .signUp:
            let name = Self.signUpNameField(pool.settings)
            return .signUp(name: name, attributes: try await hostedSignUpAttributes(pool), values: values, rules: rules,
                           error: error)
        case nil where state.stage == .confirmSignUp:
            return .confirmSignUp(destination: state.page?.destination, error: error, notice: state.page?.notice)
        case nil where state.stage == .forgotPassword:
            return .forgotPassword(name: Self.signInNameField(pool.settings), username: values["username"], error: error)
        case nil where state.stage == .resetPassword:
            return .resetPassword(destination: state.page?.destination, rules: rules, error: error, notice: state.page?.notice)
        case nil:
            return .signIn(username: state.username, name: Self.signInNameField(pool.settings), error: error,
                           notice: state.page?.notice,
                           canSignUp: pool.settings.adminCreateUserConfig?.allowAdminCreateUserOnly != true)
        case .softwareTokenMfa?, .smsMfa?, .emailOtp?:
            return .code(challenge: state.challenge ?? "", destination: state.page?.destination, error: error)
        case .newPasswordRequired?:
            return .newPassword(requiredAttributes: state.page?.requiredAttributes ?? [], values: values, rules: rules,
                                error: error)
        case .selectMfaType?: return .selectFactor(state.page?.factors ?? [], error: error)
        case .mfaSetup? where state.page?.secret != nil:
            let secret = state.page?.secret ?? ""
            return .totpSetup(secret: secret, uri: Self.otpauthURI(secret: secret, issuer: pool.name,
                                                                   account: state.username ?? ""), error: error)
        default:
            throw AuthorizationPageError(
                message: "This account needs a step the hosted pages do not offer yet (\(state.challenge ?? "")). Sign in in the app.",
                reason: .unsupportedStep, request: state.request)
        }
    }

    /// What a refused form shows again: the names and attributes typed, never a password or a code.
    static func keptValues(_ form: [String: String]) -> [String: String] {
        form.filter { $0.key == "username" || $0.key.hasPrefix("attribute.") }
    }

    /// The sign-in page's name field: what the pool accepts as a name at sign-in.
    static func signInNameField(_ pool: UserPoolType) -> HostedNameField {
        let usernames = Set(pool.usernameAttributes ?? [])
        if !usernames.isEmpty { return attributeNameField(usernames) }
        let aliases = Set(pool.aliasAttributes ?? [])
        switch (aliases.contains(.email), aliases.contains(.phoneNumber)) {
        case (true, true): return HostedNameField(label: "Username, email or phone number")
        case (true, false): return HostedNameField(label: "Username or email")
        case (false, true): return HostedNameField(label: "Username or phone number")
        default: return HostedNameField(label: "Username")          // a preferred_username is a username too
        }
    }

    /// The sign-up page's name field: the email or phone number in pools where it is the
    /// username, else a username.
    static func signUpNameField(_ pool: UserPoolType) -> HostedNameField {
        let usernames = Set(pool.usernameAttributes ?? [])
        return usernames.isEmpty ? HostedNameField(label: "Username") : attributeNameField(usernames)
    }

    private static func attributeNameField(_ usernames: Set<UsernameAttributeType>) -> HostedNameField {
        switch (usernames.contains(.email), usernames.contains(.phoneNumber)) {
        case (true, true): return HostedNameField(label: "Email or phone number")
        case (true, false): return HostedNameField(label: "Email", kind: .email)
        default: return HostedNameField(label: "Phone number", kind: .phone)
        }
    }

    /// The password policy as the pages list it ("At least 8 characters", "A number" …).
    static func passwordRules(_ policy: PasswordPolicyType?) -> [String] {
        let policy = policy ?? PoolSettings.defaultPasswordPolicy
        var rules = ["At least \(policy.minimumLength ?? 8) characters"]
        if policy.requireLowercase == true { rules.append("A lowercase letter") }
        if policy.requireUppercase == true { rules.append("An uppercase letter") }
        if policy.requireNumbers == true { rules.append("A number") }
        if policy.requireSymbols == true { rules.append("A special character, such as ! @ # or ?") }
        return rules
    }

    /// The flow `token` names (a hosted page's, a federated sign-in's), used up, with its pool and
    /// client; nil when it is unknown, expired, of another kind or already used.
    func consumeFlow<State: Decodable & Sendable>(_ token: String, challenge: PendingStep, as: State.Type) async
        -> (PoolRecord, ClientRecord, State)?
    {
        guard let record = try? await store.read({ try await $0.authSession(tokenHash: AuthSessions.hash(token)) }),
            let (pool, client) = try? await directory.requireClient(record.clientId),
            let state = try? await store.write({ transaction -> State in
                let pending = try await authSessions.readAuthSession(
                    token, challenge: challenge, as: State.self, pool: pool, client: client, in: transaction)
                try await authSessions.consumeAuthSession(pending.record, in: transaction)
                return pending.state
            })
        else { return nil }
        return (pool, client, state)
    }

    /// Stores a flow, counted against the caller's address: at most
    /// `RateLimitSettings.hostedFlowsPerMinute` per app client and address.
    func openHostedFlow(_ state: HostedFlowState, pool: PoolRecord, client: ClientRecord,
                        in transaction: any StoreTransaction) async throws -> String {
        try await allowances.consumeRequestAllowance(.hostedFlows, client: client, in: transaction)
        return try await authSessions.openAuthSession(
            .hostedSignIn, state: state, user: nil, pool: pool, client: client, encoding: .session,
            lifetime: Self.hostedFlowLifetime, in: transaction)
    }

    /// The key URI authenticator apps read (Google Authenticator's format).
    static func otpauthURI(secret: String, issuer: String, account: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let issuerPart = issuer.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        let accountPart = account.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return "otpauth://totp/\(issuerPart):\(accountPart)?secret=\(secret)&issuer=\(issuerPart)"
    }

    private static func jsonStrings(_ text: String?) -> [String]? {
        text.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
    }
}
