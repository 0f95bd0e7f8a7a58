import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension AuthClient {
    /// `request` with `Authorization: Bearer <access token>`, the token fresh (refreshed first
    /// when it is about to expire, as ``currentSession()`` does), for the app's own APIs that
    /// verify the pool's access tokens. Throws as ``currentSession()`` does (`.notSignedIn`,
    /// `.sessionExpired`) — send nothing then.
    public func authorizedRequest(_ request: URLRequest) async throws -> URLRequest {
        var authorized = request
        authorized.setValue("Bearer " + (try await currentSession().accessToken), forHTTPHeaderField: "Authorization")
        return authorized
    }
}
