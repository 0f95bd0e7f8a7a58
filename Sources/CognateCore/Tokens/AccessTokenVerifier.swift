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

    func verify(_ token: String, now: Date) throws -> AccessTokenClaims {
        guard let claims = JWT.verifiedClaims(of: token, keys: keys),
            case .string("access")? = claims["token_use"],
            case .string(let iss)? = claims["iss"], iss.hasPrefix(issuerBase + "/"),
            case .string(let clientId)? = claims["client_id"],
            case .string(let sub)? = claims["sub"],
            case .string(let username)? = claims["username"],
            case .string(let originJti)? = claims["origin_jti"],
            case .number(let exp)? = claims["exp"]
        else { throw CognitoError.invalidAccessToken }
        guard now.timeIntervalSince1970 < exp else { throw CognitoError.expiredAccessToken }
        var scopes: Set<String> = []
        if case .string(let scope)? = claims["scope"] { scopes = Set(scope.split(separator: " ").map(String.init)) }
        return AccessTokenClaims(
            poolId: String(iss.dropFirst(issuerBase.count + 1)), clientId: clientId, sub: sub, username: username,
            originJti: originJti, scopes: scopes)
    }
}
