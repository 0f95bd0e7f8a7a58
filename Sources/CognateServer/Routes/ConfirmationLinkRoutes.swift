import CognateCore
import CognateProtocol
import Hummingbird

/// `GET /confirmUser?client_id=…&user_name=…&confirmation_code=…`: the link of a
/// CONFIRM_WITH_LINK sign-up email (`ConfirmationLink`). It confirms the user as ConfirmSignUp
/// would (PostConfirmation included) and answers a small HTML page: 200 "Your registration has
/// been confirmed!", or 400 with Cognito's message for a wrong, expired or used link.
enum ConfirmationLinkRoutes {
    static func add(to router: Router<CognateRequestContext>, service: IdentityService) {
        router.get(RouterPath(ConfirmationLink.path)) { request, _ -> Response in
            let query = request.uri.queryParameters
            guard let clientId = query["client_id"].map(String.init), let username = query["user_name"].map(String.init),
                let code = query["confirmation_code"].map(String.init), !clientId.isEmpty, !username.isEmpty, !code.isEmpty,
                clientId.count <= 128, username.count <= 128, code.count <= 2048
            else { return page(.badRequest, "This confirmation link is incomplete.") }
            do {
                try await service.registration.confirmSignUpByLink(clientId: clientId, username: username, code: code)
                return page(.ok, "Your registration has been confirmed!", title: "Account confirmed")
            } catch let error as CognitoError {
                return page(error.code == .resourceNotFound ? .notFound : .badRequest, error.message)
            }
        }
    }

    /// A page saying `message`, in the hosted pages' look: `title` above it (by default, a
    /// success or a refusal as `status` says).
    static func page(_ status: HTTPResponse.Status, _ message: String, title: String? = nil) -> Response {
        HostedPages.message(status, title: title ?? (status == .ok ? "Done" : "This link can't be used"), message)
    }
}
