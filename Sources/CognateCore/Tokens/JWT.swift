import CognateProtocol
import CryptoExtras
import Foundation

/// Compact RS256 JSON Web Tokens.
enum JWT {
    struct Header: Codable {
        var kid: String?
        var alg: String?
    }

    static func sign(claims: [String: JSONValue], with key: SigningKey) throws -> String {
        let header = try JSONEncoder().encode(Header(kid: key.kid, alg: "RS256"))
        let payload = try WireCoding.makeEncoder().encode(JSONValue.object(claims))
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        let signature = try key.signer.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// The `kid` a token names, unverified (to notice keys this node has not loaded yet).
    static func keyId(of token: String) -> String? {
        guard let header = token.split(separator: ".", maxSplits: 1).first, header.utf8.count <= 1024,
            let data = Base64URL.decode(header)
        else { return nil }
        return (try? JSONDecoder().decode(Header.self, from: data))?.kid
    }

    /// The payload of a token whose RS256 signature verifies with one of the ring's keys, decoded
    /// as `Payload`; nil for anything else (malformed, unknown key, other algorithm, bad
    /// signature, a payload of another shape).
    static func verifiedPayload<Payload: Decodable>(of token: String, as: Payload.Type, keys: SigningKeyRing) -> Payload? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, token.utf8.count <= 16_384,
            let headerData = Base64URL.decode(parts[0]),
            let header = try? JSONDecoder().decode(Header.self, from: headerData), header.alg == "RS256",
            let kid = header.kid, let key = keys.key(kid: kid),
            let signature = Base64URL.decode(parts[2]),
            let payloadData = Base64URL.decode(parts[1])
        else { return nil }
        let signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        guard key.publicKey.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: signingInput, padding: .insecurePKCS1v1_5)
        else { return nil }
        return try? JSONDecoder().decode(Payload.self, from: payloadData)
    }
}
