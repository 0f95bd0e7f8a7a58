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
                try await service.confirmSignUpByLink(clientId: clientId, username: username, code: code)
                return page(.ok, "Your registration has been confirmed!")
            } catch let error as CognitoError {
                return page(error.code == .resourceNotFound ? .notFound : .badRequest, error.message)
            }
        }
    }

    /// A minimal page saying `message` (escaped).
    static func page(_ status: HTTPResponse.Status, _ message: String) -> Response {
        let escaped = message.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Confirmation</title></head>
            <body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem">
            <p>\(escaped)</p></body></html>
            """
        return Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
