/// An OAuth 2.0 error (RFC 6749 §5.2): what the token, userInfo and revocation endpoints answer
/// as `{"error": …, "error_description": …}`, and what the authorization endpoint puts in the
/// redirect to the app (`error=…`).
public struct OAuthError: Error, Sendable, Equatable {
    public var error: String
    public var description: String
    /// 400, or 401 for client authentication failures.
    public var status: Int

    public init(_ error: String, _ description: String, status: Int = 400) {
        self.error = error
        self.description = description
        self.status = status
    }

    static func invalidRequest(_ description: String) -> OAuthError { OAuthError("invalid_request", description) }
    static func invalidGrant(_ description: String) -> OAuthError { OAuthError("invalid_grant", description) }
    static func invalidScope(_ description: String) -> OAuthError { OAuthError("invalid_scope", description) }
    static func unauthorizedClient(_ description: String) -> OAuthError { OAuthError("unauthorized_client", description) }
    static let invalidClient = OAuthError("invalid_client", "Client authentication failed.", status: 401)
}

/// Why an authorization request cannot even be sent back to the app: no such client, or a
/// redirect URI the client does not list. Shown as an error page (never a redirect: that would
/// be an open redirector).
public struct AuthorizationPageError: Error, Sendable, Equatable {
    public var message: String

    public init(message: String) { self.message = message }
}
