import CognateAuth
import Foundation

/// Cognito's shape, enforced on the SDK's requests: the API (`X-Amz-Target`) answers only at the
/// regional endpoint, the OAuth endpoints (`/oauth2/…`, `/logout`) only at the user pool's
/// domain. Cognate serves both on one host, so without this a request sent to the wrong one
/// would pass here and fail against Cognito. `COGNATE_SDK_COGNITO_SHAPE=1` makes every
/// ``LiveServer`` client use it, with `localhost` as the pool's domain and `127.0.0.1` as the
/// API endpoint (`Scripts/test` runs the SDK's suites once more so).
struct CognitoShapeTransport: HTTPTransport {
    let inner: any HTTPTransport
    let apiHost: String
    let domainHost: String

    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    static var enabled: Bool { ProcessInfo.processInfo.environment["COGNATE_SDK_COGNITO_SHAPE"] == "1" }

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        let host = request.url.host ?? ""
        let path = request.url.path
        let isOAuth = path.hasPrefix("/oauth2/") || path == "/logout"
        if request.headers["X-Amz-Target"] != nil || !isOAuth {
            guard host == apiHost else {
                throw Refused(description: "Cognito serves its API at the regional endpoint, not at \(host) (\(path))")
            }
        } else {
            guard host == domainHost else {
                throw Refused(description: "Cognito serves \(path) at the user pool's domain, not at \(host)")
            }
        }
        return try await inner.send(request)
    }
}
