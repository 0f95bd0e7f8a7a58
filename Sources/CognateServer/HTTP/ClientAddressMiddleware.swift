import CognateCore
import Hummingbird

/// Sets the caller's address (``RequestOrigin/clientAddress``) and user agent for every route, so that every
/// use case a request reaches — the API, the hosted pages, the OAuth endpoints — applies the
/// same per-address limits, blocked address ranges and risk signals.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = CognateRequestContext
    /// A trusted proxy's header naming the caller (`X-Forwarded-For`); nil: the peer.
    let header: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        try await RequestOrigin.$clientAddress.withValue(request.clientAddress(peer: context.remoteAddress, header: header)) {
            try await RequestOrigin.$userAgent.withValue(request.headers[.userAgent]) {
                try await next(request, context)
            }
        }
    }
}
