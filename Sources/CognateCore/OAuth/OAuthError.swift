/// An OAuth 2.0 error (RFC 6749 §5.2, RFC 6750 §3.1): what the token, userInfo and revocation
/// endpoints answer as `{"error": …, "error_description": …}`, and what the authorization
/// endpoint puts in the redirect to the app (`error=…`). The HTTP status is the edge's choice,
/// by the error's name.
public struct OAuthError: Error, Sendable, Equatable {
    public var error: String
    public var description: String

    public init(_ error: String, _ description: String) {
        self.error = error
        self.description = description
    }

    static func invalidRequest(_ description: String) -> OAuthError { OAuthError("invalid_request", description) }
    static func invalidGrant(_ description: String) -> OAuthError { OAuthError("invalid_grant", description) }
    static func invalidScope(_ description: String) -> OAuthError { OAuthError("invalid_scope", description) }
    static func unauthorizedClient(_ description: String) -> OAuthError { OAuthError("unauthorized_client", description) }
    static let invalidClient = OAuthError("invalid_client", "Client authentication failed.")
}

/// Why an authorization request cannot even be sent back to the app: no such client, or a
/// redirect URI the client does not list. Shown as an error page (never a redirect: that would
/// be an open redirector). `message` says what went wrong for the app's developer; the page
/// leads with words for the person at the browser, chosen by `reason`.
public struct AuthorizationPageError: Error, Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The link that opened the page is not a valid sign-in request.
        case invalidRequest
        /// The page's flow is unknown, used up or expired.
        case expired
        /// The flow was started in another browser.
        case otherBrowser
        /// The account needs a step the pages do not offer.
        case unsupportedStep
        /// `/passkeys/add` for a pool (or a user) that cannot add a passkey.
        case passkeysUnavailable
    }

    public var message: String
    public var reason: Reason
    /// The sign-in the page belonged to, when it is known (the error page links back to it).
    public var request: AuthorizationRequest?

    public init(message: String, reason: Reason = .invalidRequest, request: AuthorizationRequest? = nil) {
        self.message = message
        self.reason = reason
        self.request = request
    }
}
