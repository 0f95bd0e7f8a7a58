import CognateIdentityProtocol
import CognateProtocol
import Foundation

/// ID tokens of this server's own user pools, verified locally: signature (the pool's keys),
/// issuer (`<public URL>/<pool>`, the pool the Logins key names), `token_use` id, expiry,
/// audience (the client the identity pool lists for that user pool) and revocation (the
/// token's family must stand, and its user be enabled: a signed-out or revoked sign-in gets no
/// identity and no credentials).
struct UserPoolLogins: Sendable {
    let store: any Store
    let time: any TimeSource
    let keys: SigningKeyRing
    let issuerBase: String

    func verify(_ token: String, name: String, provider: CognitoIdentityProvider) async throws -> VerifiedLogin {
        guard let login = UserPoolLoginName(name) else { throw CognitoIdentityError.unsupportedProvider }
        guard let parts = JWT.parts(of: token), let kid = parts.header.kid,
            case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: parts.payload)
        else { throw CognitoIdentityError.invalidLoginToken("Not a valid OpenId Connect identity token.") }
        guard claims["iss"]?.stringValue == issuerBase + "/" + login.poolId else {
            throw CognitoIdentityError.invalidLoginToken("Issuer doesn't match providerName")
        }
        let now = time.now
        guard let key = try? await keys.verificationKey(kid: kid, poolId: login.poolId, now: now), JWT.isSigned(parts, by: key)
        else { throw CognitoIdentityError.invalidLoginToken("Not a valid OpenId Connect identity token.") }
        guard claims["token_use"]?.stringValue == "id" else {
            throw CognitoIdentityError.invalidLoginToken("Not a valid OpenId Connect identity token.")
        }
        guard case .number(let exp)? = claims["exp"], now.timeIntervalSince1970 < exp else {
            throw CognitoIdentityError.invalidLoginToken("Token expired")
        }
        guard let audience = claims["aud"]?.stringValue, audience == provider.clientId else {
            throw CognitoIdentityError.invalidLoginToken("Incorrect token audience.")
        }
        guard let sub = claims["sub"]?.stringValue, let originJti = claims["origin_jti"]?.stringValue else {
            throw CognitoIdentityError.invalidLoginToken("Not a valid OpenId Connect identity token.")
        }
        let found = try await store.read { try await $0.user(poolId: login.poolId, sub: sub, withTokenFamily: originJti) }
        guard let (user, family) = found, let family, family.revokedAt == nil else {
            throw CognitoIdentityError.invalidLoginToken("Token has been revoked.")
        }
        guard user.enabled else { throw CognitoIdentityError.notAuthorized("User is disabled.") }
        return VerifiedLogin(provider: name, subject: sub, amr: "\(name):CognitoSignIn:\(sub)", claims: claims, clientId: audience)
    }
}
