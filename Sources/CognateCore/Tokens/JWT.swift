import CognateProtocol
import CryptoExtras
import Foundation

/// Compact RS256 JSON Web Tokens.
enum JWT {
    static func sign(claims: [String: JSONValue], with key: SigningKey) throws -> String {
        let header = try JSONSerialization.data(withJSONObject: ["kid": key.kid, "alg": "RS256"], options: [.sortedKeys])
        let payload = try WireCoding.makeEncoder().encode(JSONValue.object(claims))
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        let signature = try key.privateKey.signature(for: Data(signingInput.utf8), padding: .insecurePKCS1v1_5)
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// The `kid` a token names, unverified (to notice keys this node has not loaded yet).
    static func keyId(of token: String) -> String? {
        guard let header = token.split(separator: ".", maxSplits: 1).first, header.utf8.count <= 1024,
            let data = Base64URL.decode(header),
            case .string(let kid)? = (try? JSONDecoder().decode([String: JSONValue].self, from: data))?["kid"]
        else { return nil }
        return kid
    }

    /// The claims of a token whose RS256 signature verifies with one of the ring's keys;
    /// nil for anything else (malformed, unknown key, other algorithm, bad signature).
    static func verifiedClaims(of token: String, keys: SigningKeyRing) -> [String: JSONValue]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, token.utf8.count <= 16_384,
            let headerData = Base64URL.decode(parts[0]),
            let header = try? JSONDecoder().decode([String: JSONValue].self, from: headerData),
            case .string("RS256")? = header["alg"], case .string(let kid)? = header["kid"],
            let key = keys.key(kid: kid),
            let signature = Base64URL.decode(parts[2]),
            let payloadData = Base64URL.decode(parts[1])
        else { return nil }
        let signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        guard key.publicKey.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: signingInput, padding: .insecurePKCS1v1_5)
        else { return nil }
        guard case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: payloadData) else { return nil }
        return claims
    }
}
