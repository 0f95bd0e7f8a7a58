import CognateProtocol
import Foundation

/// A token of a pool presented to a token exchange (its subject or its actor), verified:
/// signed by the pool's keys, issued by the pool, unexpired, of the type it was said to be,
/// and — for a user's token — of a sign-in that stands (not signed out or revoked) by a user
/// who may act. A client's own access token (client credentials) may be an actor.
struct ExchangedToken: Sendable {
    /// The user the token speaks for; nil for an app client's own access token.
    var user: AuthenticatedUser?
    /// `sub`: the user's, or the client's id for a client's own token.
    var subject: String
    /// The app client the token was issued to.
    var clientId: String
    /// The access token's scopes; nil for an ID token.
    var scopes: [String]?
}

/// Verifies the tokens a token exchange is given.
struct ExchangedTokens: Sendable {
    let time: any TimeSource
    let keys: SigningKeyRing
    let issuerBase: String
    let directory: PoolDirectory
    let authenticator: AccessTokenAuthenticator

    static func invalid(_ role: String) -> CognitoError { .notAuthorized("Invalid \(role) token.") }

    /// `token` of `type` (`role`: "subject" or "actor", for messages), which must be of `pool`.
    func verify(_ token: String, type: TokenTypeIdentifierType, providerName: String?, role: String, pool: PoolRecord,
                allowingClientTokens: Bool) async throws -> ExchangedToken {
        guard providerName == nil, type == .accessToken || type == .idToken else {
            throw CognitoError.invalidParameter(
                "Only ACCESS_TOKEN and ID_TOKEN tokens of this user pool can be exchanged (no \(role) token of another provider).")
        }
        let now = time.now
        guard let parts = JWT.parts(of: token), let kid = parts.header.kid,
            case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: parts.payload),
            claims["iss"]?.stringValue == issuerBase + "/" + pool.id,
            let key = try await keys.verificationKey(kid: kid, poolId: pool.id, now: now), JWT.isSigned(parts, by: key)
        else { throw Self.invalid(role) }
        guard case .number(let exp)? = claims["exp"], now.timeIntervalSince1970 < exp else {
            throw CognitoError.notAuthorized("The \(role) token has expired.")
        }
        let wanted = type == .accessToken ? "access" : "id"
        guard claims["token_use"]?.stringValue == wanted, let sub = claims["sub"]?.stringValue else { throw Self.invalid(role) }
        let clientId = (type == .accessToken ? claims["client_id"] : claims["aud"])?.stringValue ?? ""
        guard let client = try await directory.cachedClient(clientId), client.poolId == pool.id else { throw Self.invalid(role) }
        let scopes = type == .accessToken ? (claims["scope"]?.stringValue ?? "").split(separator: " ").map(String.init) : nil
        guard let originJti = claims["origin_jti"]?.stringValue else {
            // An app client's own token (client credentials): no user, no sign-in to stand.
            guard allowingClientTokens, type == .accessToken, sub == clientId else { throw Self.invalid(role) }
            return ExchangedToken(user: nil, subject: sub, clientId: clientId, scopes: scopes)
        }
        guard case .number(let authTime)? = claims["auth_time"] else { throw Self.invalid(role) }
        let user = try await authenticator.signedInUser(
            sub: sub, originJti: originJti, authTime: Date(timeIntervalSince1970: authTime), pool: pool, client: client)
        return ExchangedToken(user: user, subject: sub, clientId: clientId, scopes: scopes)
    }
}
