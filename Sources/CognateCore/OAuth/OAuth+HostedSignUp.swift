import CognateProtocol
import Foundation

extension OAuth {

    /// Starts a hosted sign-up for a validated authorization request, in `browser`: the sign-up
    /// page (stored nowhere: its flow is sealed).
    public func beginHostedSignUp(_ request: AuthorizationRequest, browser: BrowserBinding) async throws -> HostedSignInStep {
        let (pool, client) = try await directory.requireClient(request.clientId)
        try Self.requireOwnSignIn(client, request: request)
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
                let attributes = HostedPageContent.signUpAttributes(pool).map {
                    AttributeType(name: $0, value: form["attribute.\($0)"] ?? "")
                }
                try Self.checkFormBounds(form)
                let response = try await registration.signUp(SignUpRequest(
                    clientId: client.clientId, secretHash: client.hostedSecretHash(for: username), username: username,
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
                        clientId: client.clientId, secretHash: client.hostedSecretHash(for: username), username: username))
                    let destination = sent.codeDeliveryDetails?.destination ?? state.page?.destination
                    next.page = HostedPageState(notice: HostedPageContent.newCodeNotice(destination), destination: destination)
                } else {
                    try Self.checkFormBounds(form)
                    _ = try await registration.confirmSignUp(ConfirmSignUpRequest(
                        clientId: client.clientId, secretHash: client.hostedSecretHash(for: username), username: username,
                        confirmationCode: form["code"] ?? ""))
                    next = HostedFlowState(request: state.request, binding: state.binding, username: username,
                                           page: HostedPageState(notice: "Your account is confirmed. Sign in."))
                }
            }
        } catch let error as CognitoError {
            var shown = state
            shown.page?.notice = nil
            return try await hostedPage(shown, refusal: error, form: form, pool: pool, client: client)
        }
        return try await hostedPage(next, error: nil, pool: pool, client: client)
    }

    /// Form values no real page sends: refused before anything is stored.
    static func checkFormBounds(_ form: [String: String]) throws {
        guard form.count <= 64, form.values.allSatisfy({ $0.count <= 2048 }) else {
            throw CognitoError.invalidParameter("The form has too many or too long fields.")
        }
    }
}
