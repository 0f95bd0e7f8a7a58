import CognateProtocol
import Foundation

/// What the page of a hosted flow shows, from the flow's state and the pool: pure functions of
/// the records, no store.
enum HostedPageContent {
    /// The page of `state`; `values`: the refused form's values that are no secret;
    /// `choosing`: the pool and client sign in by choice (``HostedChoiceSignIn``).
    static func page(_ state: HostedFlowState, error: String?, values: [String: String], pool: PoolRecord, choosing: Bool)
        throws -> HostedPage
    {
        let rules = passwordRules(pool.settings.policies?.passwordPolicy)
        let name = state.page?.name ?? state.username ?? ""
        let canChoose = (state.page?.offered?.count ?? 0) > 1
        switch state.challenge.map(ChallengeNameType.init(rawValue:)) {
        case nil where state.stage == .signUp:
            return .signUp(name: signUpNameField(pool.settings), attributes: signUpAttributes(pool), values: values,
                           rules: rules, error: error)
        case nil where state.stage == .confirmSignUp:
            return .confirmSignUp(destination: state.page?.destination, error: error, notice: state.page?.notice)
        case nil where state.stage == .forgotPassword:
            return .forgotPassword(name: signInNameField(pool.settings), username: values["username"], error: error)
        case nil where state.stage == .resetPassword:
            return .resetPassword(destination: state.page?.destination, rules: rules, error: error, notice: state.page?.notice)
        case nil where state.stage == .addPasskey:
            return .addPasskey(options: state.page?.options ?? "{}", username: name, returnURL: state.request.redirectURI,
                               error: error)
        case nil:
            let canSignUp = pool.settings.adminCreateUserConfig?.allowAdminCreateUserOnly != true
                && state.request.purpose == nil
            if choosing {
                return .signInName(username: state.username, name: signInNameField(pool.settings), error: error,
                                   notice: state.page?.notice, canSignUp: canSignUp)
            }
            return .signIn(username: state.username, name: signInNameField(pool.settings), error: error,
                           notice: state.page?.notice, canSignUp: canSignUp)
        case .selectChallenge?:
            return .chooseFactor(state.page?.offered ?? [], username: name, error: error)
        case .password?:
            return .password(username: name, canChoose: canChoose, error: error)
        case .webAuthn?:
            return .passkey(options: state.page?.options ?? "{}", username: name, canChoose: canChoose, error: error)
        case let factor? where factor == .smsOtp || (factor == .emailOtp && state.page?.firstFactor == true):
            return .signInCode(challenge: state.challenge ?? "", destination: state.page?.destination, username: name,
                               canChoose: canChoose, error: error, notice: state.page?.notice)
        case .softwareTokenMfa?, .smsMfa?, .emailOtp?:
            return .code(challenge: state.challenge ?? "", destination: state.page?.destination, error: error)
        case .newPasswordRequired?:
            return .newPassword(requiredAttributes: state.page?.requiredAttributes ?? [], values: values, rules: rules,
                                error: error)
        case .selectMfaType?: return .selectFactor(state.page?.factors ?? [], error: error)
        case .mfaSetup? where state.page?.secret != nil:
            let secret = state.page?.secret ?? ""
            return .totpSetup(secret: secret, uri: otpauthURI(secret: secret, issuer: pool.name, account: state.username ?? ""),
                              error: error)
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

    /// The attributes the sign-up page asks for: the pool's required ones, but for the one the
    /// name field gives in pools where it is the username (SignUp takes it from the username).
    static func signUpAttributes(_ pool: PoolRecord) -> [String] {
        let usernames = pool.settings.usernameAttributes ?? []
        let named = usernames.count == 1 ? usernames[0].rawValue : nil
        return (pool.settings.schemaAttributes ?? []).filter { $0.required == true && $0.name != "sub" && $0.name != named }
            .compactMap(\.name)
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

    /// What a page says after a new code was sent.
    static func newCodeNotice(_ destination: String?) -> String {
        "We sent a new code" + (destination.map { " to \($0)." } ?? ".")
    }

    /// The key URI authenticator apps read (Google Authenticator's format).
    static func otpauthURI(secret: String, issuer: String, account: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let issuerPart = issuer.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        let accountPart = account.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return "otpauth://totp/\(issuerPart):\(accountPart)?secret=\(secret)&issuer=\(issuerPart)"
    }
}
