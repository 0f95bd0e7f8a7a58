import CognateCore
import CognateProtocol
import Hummingbird

/// `GET /authEventFeedback?pool=…&username=…&event=…&token=…&value=valid|invalid`: the one-click
/// links of a threat-protection notification email. The token proves the link came from that
/// email; it records the feedback as UpdateAuthEventFeedback does and answers a small page.
enum AuthEventFeedbackRoutes {
    static func add(to router: Router<CognateRequestContext>, service: IdentityService) {
        router.get("/authEventFeedback") { request, _ -> Response in
            let query = request.uri.queryParameters
            let fields = ["pool", "username", "event", "token", "value"].map { query[$0].map(String.init) ?? "" }
            guard fields.allSatisfy({ !$0.isEmpty && $0.count <= 256 }), ["valid", "invalid"].contains(fields[4]) else {
                return ConfirmationLinkRoutes.page(.badRequest, "This link is incomplete.")
            }
            do {
                _ = try await service.threatProtection.updateAuthEventFeedback(UpdateAuthEventFeedbackRequest(
                    userPoolId: fields[0], username: fields[1], eventId: fields[2], feedbackToken: fields[3],
                    feedbackValue: fields[4] == "valid" ? .valid : .invalid))
                return ConfirmationLinkRoutes.page(.ok, "Thank you: your answer was recorded.", title: "Answer recorded")
            } catch let error as CognitoError {
                return ConfirmationLinkRoutes.page(.badRequest, error.message)
            }
        }
    }
}
