import CognateCore
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization

/// What a route tells the observation middleware about the request it answered: the request's
/// id (made by the middleware), and — for the Cognito API — the operation and its outcome.
/// A task-local box: the route writes, the middleware reads after the route returned.
final class ObservedRequest: Sendable {
    @TaskLocal static var current: ObservedRequest?

    let id: String
    private let named = Mutex<(operation: String, outcome: String, audited: Bool)?>(nil)

    init(id: String) { self.id = id }

    /// The API operation answered and how it ended; `audited`: the route wrote its own audit line.
    func name(operation: String, outcome: String, audited: Bool) {
        named.withLock { $0 = (operation, outcome, audited) }
    }

    var naming: (operation: String, outcome: String, audited: Bool)? { named.withLock { $0 } }
}

/// Every route's request scope, request id, metrics, access log line and audit line, in one place.
///
/// Contract: every route runs inside a ``RequestScope`` naming the caller's address
/// (``RequestOrigin/clientAddress``: the peer, or the last entry of a trusted proxy's header) and
/// user agent, so that every use case a request reaches — the API, the hosted pages, the OAuth
/// endpoints — applies the same per-address limits, blocked address ranges and risk signals.
/// One middleware rather than two: each layer of Hummingbird's middleware chain costs a request
/// several task switches. Every response carries `x-amzn-RequestId`; `cognate_requests_total` and
/// `cognate_request_duration_seconds` count every request by `operation` — the API's operation
/// name (`SignUp`), or the route (`POST /oauth2/token`, `GET /login`; `unmatched` for no route)
/// — and `outcome` (`ok`, the API error's `__type`, a hosted page's refusal, or the HTTP
/// status of a page or endpoint that failed); the access log (debug level) has a line per request; and the audit log a line
/// per call that signs in or changes something, whichever route it came through (the API
/// writes its own, with the operation's subject).
struct RequestObservation: RouterMiddleware {
    typealias Context = CognateRequestContext
    let logger: Logger
    let auditLog: AuditLog?
    /// A trusted proxy's header naming the caller (`X-Forwarded-For`); nil: the peer.
    let clientAddressHeader: String?
    let requestIds = RequestIdentifiers()

    /// Routes besides the API that sign in or change something: audited.
    static let auditedRoutes: Set<String> = [
        "POST /login", "POST /passkeys/add", "POST /oauth2/token", "POST /oauth2/revoke", "GET /oauth2/idpresponse", "GET /logout",
        "POST /saml2/idpresponse", "GET /saml2/idpresponse", "POST /saml2/logout",
        "GET /confirmUser", "PUT /import/:job", "GET /authEventFeedback",
    ]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let started = ContinuousClock.now
        let observed = ObservedRequest(id: requestIds.next())
        let scope = RequestScope(
            clientAddress: request.clientAddress(peer: context.remoteAddress, header: clientAddressHeader),
            userAgent: request.headers[.userAgent])
        let caller = scope.verifiedCaller
        let hostedStep = scope.hostedStep
        var response: Response
        do {
            response = try await RequestOrigin.$scope.withValue(scope) {
                try await ObservedRequest.$current.withValue(observed) { try await next(request, context) }
            }
        } catch let error as any HTTPResponseError {
            response = Response(status: error.status)
        } catch {
            logger.error("Unexpected error: \(String(reflecting: error))", metadata: ["request_id": .string(observed.id)])
            response = Response(status: .internalServerError)
        }
        if response.headers[CognitoAPIResponder.requestIdHeader] == nil {
            response.headers[CognitoAPIResponder.requestIdHeader] = observed.id
        }
        let elapsed = ContinuousClock.now - started
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        let route = context.endpointPath.map { "\(request.method.rawValue) \($0)" } ?? "unmatched"
        let naming = observed.naming
        let operation = naming?.operation ?? route
        // A hosted page that shows its form again with an error answers 200, but was refused.
        let outcome = naming?.outcome ?? hostedStep.refusal
            ?? (response.status.code < 400 ? "ok" : String(response.status.code))
        ServerMetrics.request(operation: operation, outcome: outcome, nanoseconds: nanoseconds)
        logger.debug("request", metadata: [
            "request_id": .string(observed.id), "operation": .string(operation), "outcome": .string(outcome),
            "status": .stringConvertible(response.status.code), "ms": .stringConvertible(Double(nanoseconds / 1000) / 1000),
            "client": .string(scope.clientAddress ?? ""),
        ])
        if let auditLog, naming?.audited != true, Self.auditedRoutes.contains(route) {
            let written = auditLog.record(AuditLog.Call(
                requestId: observed.id, operation: route, isAdmin: false, outcome: outcome, status: Int(response.status.code),
                clientAddress: scope.clientAddress, accessKeyId: nil, verifiedUser: caller.user,
                clientId: hostedStep.clientId ?? request.uri.queryParameters["client_id"].map(String.init), body: nil))
            if !written { logger.error("Cannot write the audit log \(auditLog.path).") }
        }
        return response
    }
}
