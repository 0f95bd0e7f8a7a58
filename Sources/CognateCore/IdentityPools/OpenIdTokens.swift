import CognateIdentityProtocol
import CognateProtocol
import Foundation

/// The identity service's OpenID tokens: RS256, signed with a key set of its own
/// (``SigningKeyRing/identityKeySet``), published at `<public URL>/cognito-identity/.well-known/jwks.json`
/// with a discovery document beside it, so that STS (AssumeRoleWithWebIdentity, with the issuer
/// registered as an IAM OIDC provider), MinIO, Vault or Kubernetes can verify them.
///
/// Claims as Cognito sets them: `iss` (here `<public URL>/cognito-identity`, Cognito's is
/// `https://cognito-identity.amazonaws.com`), `sub` the identity id, `aud` the identity pool id,
/// `amr` `["unauthenticated"]` for a guest, else `["authenticated", <provider>,
/// <provider>:<detail>…]` for the logins of the call (a user pool's detail is
/// `<provider>:CognitoSignIn:<sub>`, a developer provider's `<name>:<pool id>:<user id>`), `iat`,
/// `exp` (15 minutes, or a developer token's TokenDuration up to 24 hours), and
/// `https://cognito-identity.amazonaws.com/identity-pool-arn`; principal tags under
/// `https://aws.amazon.com/tags`, where STS reads session tags.
struct OpenIdTokens: Sendable {
    let keys: SigningKeyRing
    let time: any TimeSource
    let lookup: IdentityPoolLookup
    let issuer: String

    static let poolARNClaim = "https://cognito-identity.amazonaws.com/identity-pool-arn"
    static let tagsClaim = "https://aws.amazon.com/tags"

    func token(identityId: String, poolId: String, logins: [VerifiedLogin], lifetime: TimeInterval,
               principalTags: [String: String] = [:]) async throws -> String {
        let now = time.now
        var amr: [JSONValue] = []
        if logins.isEmpty {
            amr = ["unauthenticated"]
        } else {
            amr = ["authenticated"]
            for login in logins {
                if login.provider == developerTokenLoginName, case .array(let earlier)? = login.claims["amr"] {
                    amr += earlier.filter { $0 != "authenticated" && !amr.contains($0) }
                } else {
                    amr += [.string(login.provider), .string(login.amr)].filter { !amr.contains($0) }
                }
            }
        }
        let issuedAt = now.timeIntervalSince1970.rounded(.down)
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "sub": .string(identityId), "aud": .string(poolId), "amr": .array(amr),
            "iat": .number(issuedAt), "exp": .number(issuedAt + lifetime.rounded(.down)),
            Self.poolARNClaim: .string(lookup.arn(of: poolId)),
        ]
        if !principalTags.isEmpty {
            claims[Self.tagsClaim] = .object([
                "principal_tags": .object(principalTags.mapValues { .array([.string($0)]) }),
            ])
        }
        let key = try await keys.signingKey(for: SigningKeyRing.identityKeySet, now: now)
        return try JWT.sign(claims: claims, with: key)
    }

    /// `{"keys": [...]}` for the JWKS route.
    func jwks() async throws -> [String: [[String: String]]] {
        try await keys.jwks(for: SigningKeyRing.identityKeySet, now: time.now)
    }

    /// A token of ours handed back under `cognito-identity.amazonaws.com` (the
    /// developer-authenticated flow): signed by our keys, for this pool, authenticated, not
    /// expired. It proves its `sub`, the identity.
    func verifyDeveloperToken(_ token: String, pool: IdentityPoolRecord) async throws -> VerifiedLogin {
        let now = time.now
        guard let parts = JWT.parts(of: token), let kid = parts.header.kid,
            case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: parts.payload),
            claims["iss"]?.stringValue == issuer,
            let key = try? await keys.verificationKey(kid: kid, poolId: SigningKeyRing.identityKeySet, now: now),
            JWT.isSigned(parts, by: key)
        else { throw CognitoIdentityError.invalidLoginToken("Not a valid OpenId Connect identity token.") }
        guard claims["aud"]?.stringValue == pool.id else { throw CognitoIdentityError.invalidLoginToken("Incorrect token audience.") }
        guard case .number(let exp)? = claims["exp"], now.timeIntervalSince1970 < exp else {
            throw CognitoIdentityError.invalidLoginToken("Token expired")
        }
        guard case .array(let amr)? = claims["amr"], amr.contains("authenticated"), let sub = claims["sub"]?.stringValue else {
            throw CognitoIdentityError.loginsDoNotMatch
        }
        return VerifiedLogin(provider: developerTokenLoginName, subject: sub, amr: "", claims: claims, clientId: nil)
    }
}
