import Foundation

/// Who is signed in, as the ID token says.
public struct AuthUser: Sendable, Equatable, Codable {
    /// The user's `sub`: a UUID that never changes.
    public var userId: String
    /// The internal username (`cognito:username`; a UUID in pools that sign in with email).
    public var username: String
    /// The user attributes the ID token carries (`email`, `given_name`, `custom:…`), as strings.
    public var attributes: [String: String]

    public init(userId: String, username: String, attributes: [String: String]) {
        self.userId = userId
        self.username = username
        self.attributes = attributes
    }

    /// Claims of every ID token that are not user attributes.
    static let tokenClaims: Set<String> = [
        "sub", "aud", "iss", "exp", "iat", "auth_time", "jti", "origin_jti", "event_id", "token_use",
        "cognito:username", "cognito:groups", "cognito:roles", "cognito:preferred_role", "nonce", "at_hash",
    ]

    /// The user an ID token names, or nil if it is not a readable Cognito ID token.
    init?(idToken: String) {
        guard let payload = JWTPayload(token: idToken), let sub = payload.string("sub") else { return nil }
        var attributes: [String: String] = [:]
        for name in payload.claims.keys where !Self.tokenClaims.contains(name) {
            attributes[name] = payload.string(name)
        }
        self.init(userId: sub, username: payload.string("cognito:username") ?? sub, attributes: attributes)
    }
}
