import Foundation

/// Who is signed in, as the ID token says.
public struct AuthUser: Sendable, Equatable, Codable {
    /// The user's `sub`: a UUID that never changes.
    public var userId: String
    /// The internal username (`cognito:username`; a UUID in pools that sign in with email).
    public var username: String
    /// The user attributes the ID token carries (`email`, `given_name`, `custom:…`), as strings.
    public var attributes: [String: String]
    /// The user pool groups the user belongs to (`cognito:groups`), as the ID token was issued:
    /// a change shows after the next refresh (``AuthClient/refreshSession()``).
    public var groups: [String]

    public init(userId: String, username: String, attributes: [String: String], groups: [String] = []) {
        self.userId = userId
        self.username = username
        self.attributes = attributes
        self.groups = groups
    }

    enum CodingKeys: String, CodingKey {
        case userId, username, attributes, groups
    }

    /// Records stored before groups were kept decode with none (until the next refresh).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            userId: try container.decode(String.self, forKey: .userId),
            username: try container.decode(String.self, forKey: .username),
            attributes: try container.decode([String: String].self, forKey: .attributes),
            groups: try container.decodeIfPresent([String].self, forKey: .groups) ?? [])
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
        var groups: [String] = []
        if case .array(let values)? = payload.claims["cognito:groups"] {
            groups = values.compactMap { if case .string(let value) = $0 { value } else { nil } }
        }
        self.init(userId: sub, username: payload.string("cognito:username") ?? sub, attributes: attributes, groups: groups)
    }
}
