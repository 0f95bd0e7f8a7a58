import CognateProtocol
import Foundation

extension OAuth {

    /// Starts a hosted password reset for a validated authorization request, in `browser`: the
    /// page asking for the account's name (stored nowhere: its flow is sealed).
    public func beginHostedPasswordReset(_ request: AuthorizationRequest, browser: BrowserBinding) async throws
        -> HostedSignInStep
    {
        let (pool, client) = try await directory.requireClient(request.clientId)
        try Self.requireOwnSignIn(client, request: request)
        return try await firstHostedPage(
            HostedFlowState(request: request, stage: .forgotPassword), browser: browser, pool: pool, client: client)
    }

    /// The reset pages submitted: ForgotPassword, then ConfirmForgotPassword, as the API runs
    /// them (existence hiding, limits, triggers); then the sign-in page with the name filled in.
    /// The code page's `resend` runs ForgotPassword again for the same name.
    func continueHostedRecovery(_ state: HostedFlowState, form: [String: String], pool: PoolRecord, client: ClientRecord)
        async throws -> HostedSignInStep
    {
        var next = state
        do {
            try Self.checkFormBounds(form)
            if state.stage == .forgotPassword {
                let username = form["username"] ?? ""
                let sent = try await registration.forgotPassword(ForgotPasswordRequest(
                    clientId: client.clientId, secretHash: client.hostedSecretHash(for: username), username: username))
                next.username = username
                next.stage = .resetPassword
                next.page = HostedPageState(destination: sent.codeDeliveryDetails?.destination)
            } else if form["resend"] != nil {
                let username = state.username ?? ""
                let sent = try await registration.forgotPassword(ForgotPasswordRequest(
                    clientId: client.clientId, secretHash: client.hostedSecretHash(for: username), username: username))
                let destination = sent.codeDeliveryDetails?.destination ?? state.page?.destination
                next.page = HostedPageState(notice: HostedPageContent.newCodeNotice(destination), destination: destination)
            } else {
                let username = state.username ?? ""
                _ = try await registration.confirmForgotPassword(ConfirmForgotPasswordRequest(
                    clientId: client.clientId, secretHash: client.hostedSecretHash(for: username), username: username,
                    confirmationCode: form["code"] ?? "", password: form["new_password"] ?? ""))
                next = HostedFlowState(request: state.request, binding: state.binding, username: username,
                                       page: HostedPageState(notice: "Your password was changed. Sign in."))
            }
        } catch let error as CognitoError {
            var shown = state
            shown.page?.notice = nil
            return try await hostedPage(shown, refusal: error, form: form, pool: pool, client: client)
        }
        return try await hostedPage(next, error: nil, pool: pool, client: client)
    }
}
