import HTTPTypes
import Hummingbird

/// Which web pages may call Cognate from a browser.
///
/// Contract: the public operations (sign-up, sign-in, the signed-in user's own calls) and the
/// JWKS and discovery documents answer to the configured origins (`*`: any, as Cognito's
/// endpoint does), so browser apps (Amplify JS) work. Admin operations and the dev outbox
/// never carry CORS headers: no web page can read what they answer, whatever its origin.
struct CORSPolicy: Sendable {
    let allowedOrigins: [String]

    static let allowedHeaders = [
        "content-type", "authorization", "cache-control", "x-amz-target", "x-amz-user-agent", "x-amz-date",
        "x-amz-security-token", "amz-sdk-invocation-id", "amz-sdk-request",
    ].joined(separator: ", ")

    /// The `Access-Control-Allow-Origin` value for a request from `origin`, nil when that
    /// origin may not read the answer.
    func allowedOrigin(for origin: String?) -> String? {
        if allowedOrigins.contains("*") { return "*" }
        guard let origin, allowedOrigins.contains(origin) else { return nil }
        return origin
    }

    /// Headers that let `origin` read a response (none when it may not).
    func responseHeaders(origin: String?) -> HTTPFields {
        guard let allowed = allowedOrigin(for: origin) else { return [:] }
        var headers: HTTPFields = [
            .accessControlAllowOrigin: allowed,
            .accessControlExposeHeaders: "x-amzn-RequestId, x-amzn-ErrorType",
        ]
        if allowed != "*" { headers[.vary] = "Origin" }
        return headers
    }

    /// The answer to a preflight `OPTIONS` request.
    func preflight(origin: String?) -> Response {
        var headers = responseHeaders(origin: origin)
        if !headers.isEmpty {
            headers[.accessControlAllowMethods] = "GET, POST, OPTIONS"
            headers[.accessControlAllowHeaders] = Self.allowedHeaders
            headers[.accessControlMaxAge] = "600"
        }
        return Response(status: .noContent, headers: headers)
    }
}

extension Response {
    /// This response with `policy`'s headers for the request's origin.
    func allowing(_ policy: CORSPolicy, for request: Request) -> Response {
        var response = self
        response.headers.append(contentsOf: policy.responseHeaders(origin: request.headers[.origin]))
        return response
    }
}

/// Answers every `OPTIONS` request (a browser's preflight) with the policy's headers.
struct CORSPreflightMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: CORSPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.method == .options else { return try await next(request, context) }
        return policy.preflight(origin: request.headers[.origin])
    }
}
