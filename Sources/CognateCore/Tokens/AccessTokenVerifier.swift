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
    /// `exp`, epoch seconds.
    var expiresAt: Double
    /// `auth_time`, epoch seconds: when the user last proved who they are (a refresh keeps it).
    var authTime: Double
}

/// Checks an access token's signature, issuer, use and expiry (not revocation: that needs the
/// store, see `AccessTokenAuthenticator.authenticatedUser`).
///
/// The issuer is read before the signature is checked, to know whose keys to check it with;
/// an issuer naming a pool without keys (or no pool) only finds no key.
struct AccessTokenVerifier: Sendable {
    let keys: SigningKeyRing
    let issuerBase: String
    let verified = VerifiedTokenCache()

    /// The members of an access token's payload this server checks.
    struct Payload: Decodable {
        var token_use: String
        var iss: String
        var client_id: String
        var sub: String
        var username: String
        var origin_jti: String
        var exp: Double
        var auth_time: Double
        var scope: String?
    }

    /// The claims of a valid access token: well formed, issued by this server for a pool
    /// (`<issuerBase>/<poolId>`), signed by one of that pool's keys, `token_use` access, not
    /// expired.
    func verify(_ token: String, now: Date) async throws -> AccessTokenClaims {
        let claims = try await verifiedClaims(token, now: now)
        guard now.timeIntervalSince1970 < claims.expiresAt else { throw CognitoError.expiredAccessToken }
        return claims
    }

    private func verifiedClaims(_ token: String, now: Date) async throws -> AccessTokenClaims {
        if let claims = verified.claims(of: token) { return claims }
        // Before the keys: a key change after this point keeps this token out of the cache.
        let generation = verified.generation
        guard let parts = JWT.parts(of: token), let kid = parts.header.kid,
            let payload = try? JSONDecoder().decode(Payload.self, from: parts.payload), payload.token_use == "access",
            payload.iss.hasPrefix(issuerBase + "/")
        else { throw CognitoError.invalidAccessToken }
        let poolId = String(payload.iss.utf8.dropFirst(issuerBase.utf8.count + 1))!
        guard !poolId.isEmpty, poolId.utf8.count <= 55, !poolId.contains("/"),
            let key = try? await keys.verificationKey(kid: kid, poolId: poolId, now: now), JWT.isSigned(parts, by: key)
        else { throw CognitoError.invalidAccessToken }
        let claims = AccessTokenClaims(
            poolId: poolId, clientId: payload.client_id, sub: payload.sub, username: payload.username,
            originJti: payload.origin_jti, scopes: Set((payload.scope ?? "").split(separator: " ").map(String.init)),
            expiresAt: payload.exp, authTime: payload.auth_time)
        verified.insert(token, claims: claims, now: now, generation: generation)
        return claims
    }
}
