import CognateCore
import Foundation
import HTTPTypes
import Hummingbird

/// The OAuth endpoints' requests read once, here at the edge, into the core's typed requests:
/// the client's credentials (HTTP Basic, or `client_id`/`client_secret` in the form — naming
/// one client both ways is refused as another client) and the grant.
enum OAuthRequests {
    /// `POST /oauth2/token`'s form.
    static func tokenRequest(_ form: [String: String], basic: (id: String, secret: String)?) -> TokenRequest {
        let grant: TokenRequest.Grant
        switch form["grant_type"] {
        case "authorization_code"?:
            if let code = form["code"], !code.isEmpty {
                grant = .authorizationCode(code: code, redirectURI: form["redirect_uri"], codeVerifier: form["code_verifier"])
            } else {
                grant = .malformed(OAuthError("invalid_request", "code is missing."))
            }
        case "refresh_token"?:
            if let token = form["refresh_token"], !token.isEmpty {
                grant = .refreshToken(token)
            } else {
                grant = .malformed(OAuthError("invalid_request", "refresh_token is missing."))
            }
        case "client_credentials"?:
            grant = .clientCredentials(scope: form["scope"])
        case nil:
            grant = .malformed(OAuthError("invalid_request", "grant_type is missing."))
        case let other?:
            grant = .malformed(OAuthError("unsupported_grant_type", "The grant type \(other) is not supported."))
        }
        return TokenRequest(client: client(form, basic: basic), grant: grant)
    }

    /// `POST /oauth2/revoke`'s form.
    static func revocationRequest(_ form: [String: String], basic: (id: String, secret: String)?) -> RevocationRequest {
        RevocationRequest(client: client(form, basic: basic), token: form["token"])
    }

    private static func client(_ form: [String: String], basic: (id: String, secret: String)?) -> OAuthClientCredentials {
        let named = basic?.id ?? form["client_id"]
        guard form["client_id"].map({ $0 == named }) ?? true else { return OAuthClientCredentials(clientId: nil, secret: nil) }
        return OAuthClientCredentials(clientId: named, secret: basic?.secret ?? form["client_secret"])
    }

    /// The HTTP status of an OAuth error (RFC 6749 §5.2, RFC 6750 §3.1).
    static func status(of error: OAuthError) -> HTTPResponse.Status {
        switch error.error {
        case "invalid_client", "invalid_token": .unauthorized
        case "insufficient_scope": .forbidden
        case "server_error": .internalServerError
        default: .badRequest
        }
    }
}
