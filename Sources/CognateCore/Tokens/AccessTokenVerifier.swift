import CognateProtocol
import Foundation

/// The claims of a verified access token that the use cases rely on.
struct AccessTokenClaims: Sendable {
    var poolId: String
    var clientId: String
    var sub: String
    var username: String
    var originJti: String
    var scopes: Set<String>
}

/// Checks an access token's signature, issuer, use and expiry (not revocation: that needs the
/// store, see `IdentityService.authenticatedUser`).
struct AccessTokenVerifier: Sendable {
    let keys: SigningKeyRing
    let issuerBase: String

    /// The members of an access token's payload this server checks.
    struct Payload: Decodable {
        var token_use: String
        var iss: String
        var client_id: String
        var sub: String
        var username: String
        var origin_jti: String
        var exp: Double
        var scope: String?
    }

    func verify(_ token: String, now: Date) throws -> AccessTokenClaims {
        guard let payload = JWT.verifiedPayload(of: token, as: Payload.self, keys: keys), payload.token_use == "access",
            payload.iss.hasPrefix(issuerBase + "/")
        else { throw CognitoError.invalidAccessToken }
        guard now.timeIntervalSince1970 < payload.exp else { throw CognitoError.expiredAccessToken }
        return AccessTokenClaims(
            poolId: String(payload.iss.dropFirst(issuerBase.count + 1)), clientId: payload.client_id, sub: payload.sub,
            username: payload.username, originJti: payload.origin_jti,
            scopes: Set((payload.scope ?? "").split(separator: " ").map(String.init)))
    }
}
