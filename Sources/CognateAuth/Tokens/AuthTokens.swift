import CognateProtocol
import Foundation

/// The tokens of a signed-in user, as kept in the ``TokenStore``.
public struct AuthTokens: Sendable, Equatable, Codable {
    public var idToken: String
    /// Send as `Authorization: Bearer …` to your APIs.
    public var accessToken: String
    public var refreshToken: String
    /// When the access token expires, on this device's clock (from `ExpiresIn`, so a skewed
    /// device clock does not matter).
    public var expiresAt: Date
    public var user: AuthUser

    public init(idToken: String, accessToken: String, refreshToken: String, expiresAt: Date, user: AuthUser) {
        self.idToken = idToken
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.user = user
    }

    /// Tokens from an `AuthenticationResult`. Refresh results carry no refresh token: pass the
    /// one that was used.
    init(_ result: AuthenticationResultType, previousRefreshToken: String? = nil, receivedAt: Date = Date()) throws {
        guard let idToken = result.idToken, let accessToken = result.accessToken,
            let refreshToken = result.refreshToken ?? previousRefreshToken
        else { throw AuthError.invalidResponse("AuthenticationResult lacks tokens.") }
        guard let user = AuthUser(idToken: idToken) else {
            throw AuthError.invalidResponse("The ID token is not a readable JWT.")
        }
        self.init(
            idToken: idToken, accessToken: accessToken, refreshToken: refreshToken,
            expiresAt: receivedAt.addingTimeInterval(TimeInterval(result.expiresIn ?? 3600)), user: user)
    }

    /// Whether the access token expires within `margin` seconds of `now`.
    public func expires(within margin: TimeInterval, of now: Date = Date()) -> Bool {
        expiresAt.timeIntervalSince(now) <= margin
    }
}
