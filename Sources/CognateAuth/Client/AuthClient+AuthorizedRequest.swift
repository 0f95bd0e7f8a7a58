import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension AuthClient {
    /// `request` with `Authorization: Bearer <access token>`, the token fresh (refreshed first
    /// when it is about to expire, as ``currentSession()`` does), for the app's own APIs that
    /// verify the pool's access tokens. Throws as ``currentSession()`` does (`.notSignedIn`,
    /// `.sessionExpired`) — send nothing then — and `.invalidParameter` for a URL that is not
    /// https (a loopback host excepted, for development): the token is a bearer secret.
    public func authorizedRequest(_ request: URLRequest) async throws -> URLRequest {
        try Self.checkTokenDestination(request.url)
        var authorized = request
        authorized.setValue("Bearer " + (try await currentSession().accessToken), forHTTPHeaderField: "Authorization")
        return authorized
    }
}

extension AuthClient {
    /// An access token goes only to an https URL, or to this machine over http.
    static func checkTokenDestination(_ url: URL?) throws {
        let scheme = url?.scheme?.lowercased()
        let host = url?.host?.lowercased() ?? ""
        guard scheme == "https" || (scheme == "http" && ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host)) else {
            throw AuthError.invalidParameter("An access token goes only to an https URL (or a loopback address).")
        }
    }
}
