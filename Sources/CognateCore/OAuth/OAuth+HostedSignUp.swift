import CognateProtocol
import Foundation

extension OAuth {

    /// Starts a hosted sign-up for a validated authorization request, in `browser`: the sign-up
    /// page (stored nowhere: its flow is sealed).
    public func beginHostedSignUp(_ request: AuthorizationRequest, browser: BrowserBinding) async throws -> HostedSignInStep {
        let (pool, client) = try await directory.requireClient(request.clientId)
        return try await firstHostedPage(
            HostedFlowState(request: request, stage: .signUp), browser: browser, pool: pool, client: client)
    }

    /// A sign-up page or its code page submitted: SignUp and ConfirmSignUp as the API runs them
    /// (the pool's policies, attribute rules, triggers and limits). A confirmed account goes on
    /// to the sign-in page with its name filled in (the password is never kept between pages).
    func continueHostedSignUp(_ state: HostedFlowState, form: [String: String], pool: PoolRecord, client: ClientRecord)
        async throws -> HostedSignInStep
    {
        var next = state
        do {
            if state.stage == .signUp {
                let username = form["username"] ?? ""
                let attributes = try await hostedSignUpAttributes(pool).map {
                    AttributeType(name: $0, value: form["attribute.\($0)"] ?? "")
                }
                try Self.checkFormBounds(form)
                let response = try await registration.signUp(SignUpRequest(
                    clientId: client.clientId, secretHash: hostedSecretHash(username, client), username: username,
                    password: form["password"] ?? "", userAttributes: attributes))
                next.username = username
                if response.userConfirmed {
                    next = HostedFlowState(request: state.request, binding: state.binding, username: username,
                                           page: HostedPageState(notice: "Your account is ready. Sign in."))
                } else {
                    next.stage = .confirmSignUp
                    next.page = HostedPageState(destination: response.codeDeliveryDetails?.destination)
                }
            } else {
                let username = state.username ?? ""
                if form["resend"] != nil {
                    let sent = try await registration.resendConfirmationCode(ResendConfirmationCodeRequest(
                        clientId: client.clientId, secretHash: hostedSecretHash(username, client), username: username))
                    let destination = sent.codeDeliveryDetails?.destination ?? state.page?.destination
                    next.page = HostedPageState(notice: Self.newCodeNotice(destination), destination: destination)
                } else {
                    try Self.checkFormBounds(form)
                    _ = try await registration.confirmSignUp(ConfirmSignUpRequest(
                        clientId: client.clientId, secretHash: hostedSecretHash(username, client), username: username,
                        confirmationCode: form["code"] ?? ""))
                    next = HostedFlowState(request: state.request, binding: state.binding, username: username,
                                           page: HostedPageState(notice: "Your account is confirmed. Sign in."))
                }
            }
        } catch let error as CognitoError {
            var shown = state
            shown.page?.notice = nil
            return try await hostedPage(shown, error: error.message, form: form, pool: pool, client: client)
        }
        return try await hostedPage(next, error: nil, pool: pool, client: client)
    }

    /// The attributes the sign-up page asks for: the pool's required ones, but for the one the
    /// name field gives in pools where it is the username (SignUp takes it from the username).
    func hostedSignUpAttributes(_ pool: PoolRecord) async throws -> [String] {
        let usernames = pool.settings.usernameAttributes ?? []
        let named = usernames.count == 1 ? usernames[0].rawValue : nil
        return (pool.settings.schemaAttributes ?? []).filter { $0.required == true && $0.name != "sub" && $0.name != named }
            .compactMap(\.name)
    }

    /// What a page says after a new code was sent.
    static func newCodeNotice(_ destination: String?) -> String {
        "We sent a new code" + (destination.map { " to \($0)." } ?? ".")
    }

    /// The SECRET_HASH the hosted pages send for the user (the server holds the client secret).
    func hostedSecretHash(_ username: String, _ client: ClientRecord) -> String? {
        client.secret.map { SecretHash.compute(username: username, clientId: client.clientId, clientSecret: $0) }
    }

    /// Form values no real page sends: refused before anything is stored.
    static func checkFormBounds(_ form: [String: String]) throws {
        guard form.count <= 64, form.values.allSatisfy({ $0.count <= 2048 }) else {
            throw CognitoError.invalidParameter("The form has too many or too long fields.")
        }
    }
}
