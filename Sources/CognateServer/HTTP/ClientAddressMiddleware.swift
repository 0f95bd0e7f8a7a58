import CognateCore
import Hummingbird

/// Opens every route's ``RequestScope``: the caller's address (``RequestOrigin/clientAddress``)
/// and user agent, so that every
/// use case a request reaches — the API, the hosted pages, the OAuth endpoints — applies the
/// same per-address limits, blocked address ranges and risk signals.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = CognateRequestContext
    /// A trusted proxy's header naming the caller (`X-Forwarded-For`); nil: the peer.
    let header: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let scope = RequestScope(clientAddress: request.clientAddress(peer: context.remoteAddress, header: header),
                                 userAgent: request.headers[.userAgent])
        return try await RequestOrigin.$scope.withValue(scope) { try await next(request, context) }
    }
}
