import CognateProtocol
import Crypto
import Foundation

/// Sign in with Apple's client secret: a JWT the app signs itself, ES256 with the private key
/// Apple issued (`private_key`, PEM PKCS#8 P-256, a `.p8` file), its header naming the key
/// (`kid` = `key_id`), its claims the team (`iss` = `team_id`), the app (`sub` = `client_id`),
/// Apple (`aud`), and a short life (`iat`, `exp`; Apple accepts up to six months).
enum AppleClientSecret {
    static let audience = "https://appleid.apple.com"
    static let lifetime: TimeInterval = 300

    struct InvalidKey: Error {}

    static func make(teamId: String, keyId: String, clientId: String, privateKey: String, now: Date) throws -> String {
        let key = try signingKey(privateKey)
        let issued = now.timeIntervalSince1970.rounded(.down)
        let header = JSONValue.object(["alg": "ES256", "kid": .string(keyId)]).jsonBytes
        let claims = JSONValue.object([
            "iss": .string(teamId), "sub": .string(clientId), "aud": .string(audience),
            "iat": .number(issued), "exp": .number(issued + lifetime),
        ]).jsonBytes
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(claims)
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// The key of a PEM text, however its lines were kept: with line breaks, on one line, with
    /// escaped `\n`s, or the base64 alone. PKCS#8 (Apple's `.p8`) or SEC1.
    static func signingKey(_ text: String) throws -> P256.Signing.PrivateKey {
        var body = text.replacingOccurrences(of: "\\n", with: "\n")
        for marker in ["-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----", "-----BEGIN EC PRIVATE KEY-----",
                       "-----END EC PRIVATE KEY-----"] {
            body = body.replacingOccurrences(of: marker, with: "")
        }
        body = String(body.filter { !$0.isWhitespace })
        guard let der = Data(base64Encoded: body), let key = try? P256.Signing.PrivateKey(derRepresentation: der) else {
            throw InvalidKey()
        }
        return key
    }
}
