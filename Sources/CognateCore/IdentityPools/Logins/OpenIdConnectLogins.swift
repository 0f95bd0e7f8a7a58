import CognateIdentityProtocol
import CognateProtocol
import CryptoExtras
import Foundation

/// ID tokens of OpenID Connect issuers — Google (`accounts.google.com`), Apple
/// (`appleid.apple.com`) and the pool's OpenIdConnectProviderARNs — verified against the
/// issuer's published keys: RS256 signature, `iss` (the issuer's URL: `https://<name>`, or the
/// URL configured for that name), expiry, `aud` (one of the app ids SupportedLoginProviders
/// gives; any for OIDC providers), `sub`.
struct OpenIdConnectLogins: Sendable {
    let time: any TimeSource
    let keySets: ProviderKeySets
    let providerURLs: [String: String]
    let log: @Sendable (String) -> Void

    func issuer(of name: String) -> String {
        let url = providerURLs[name] ?? "https://" + name
        return url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    func verify(_ token: String, name: String, audiences: Set<String>?) async throws -> VerifiedLogin {
        guard let parts = JWT.parts(of: token), let kid = parts.header.kid,
            case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: parts.payload)
        else { throw CognitoIdentityError.invalidLoginToken("Not a valid OpenId Connect identity token.") }
        let issuer = issuer(of: name)
        let stated = claims["iss"]?.stringValue
        // Google's tokens may name their issuer without the scheme.
        guard stated == issuer || (name == "accounts.google.com" && stated == "accounts.google.com" && providerURLs[name] == nil)
        else { throw CognitoIdentityError.invalidLoginToken("Issuer doesn't match providerName") }
        let now = time.now
        let key: _RSA.Signing.PublicKey?
        do {
            key = try await keySets.key(issuer: issuer, kid: kid, now: now)
        } catch let failure as ProviderKeySets.Failure {
            log("identity pools: the keys of \(issuer) could not be read: \(failure.reason)")
            throw CognitoIdentityError.externalService("The keys of \(name) could not be read.")
        }
        guard let key, key.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: parts.signature),
            for: Data("\(parts.encodedHeader).\(parts.encodedPayload)".utf8), padding: .insecurePKCS1v1_5)
        else { throw CognitoIdentityError.invalidLoginToken("Not a valid OpenId Connect identity token.") }
        guard case .number(let exp)? = claims["exp"], now.timeIntervalSince1970 < exp else {
            throw CognitoIdentityError.invalidLoginToken("Token expired")
        }
        let tokenAudiences: [String] = switch claims["aud"] {
        case .string(let value)?: [value]
        case .array(let values)?: values.compactMap(\.stringValue)
        default: []
        }
        if let audiences, !tokenAudiences.contains(where: audiences.contains) {
            throw CognitoIdentityError.invalidLoginToken("Incorrect token audience.")
        }
        guard let sub = claims["sub"]?.stringValue, !sub.isEmpty else {
            throw CognitoIdentityError.invalidLoginToken("Missing a required claim: sub")
        }
        let audience = tokenAudiences.first ?? ""
        return VerifiedLogin(provider: name, subject: sub, amr: "\(name):\(audience):\(sub)", claims: claims, clientId: nil)
    }
}
