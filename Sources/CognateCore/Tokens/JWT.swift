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
        let signingInput = key.encodedHeader + "." + Base64URL.encode(JSONValue.object(claims).jsonBytes)
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

    /// The parts of a compact token, before any check.
    struct Parts {
        var header: Header
        var encodedHeader: Substring
        var encodedPayload: Substring
        var signature: Data
        var payload: Data
    }

    /// Splits and decodes a compact RS256 token; nil when it is malformed, oversized or uses
    /// another algorithm or no `kid`. The signature must be written as base64url writes it
    /// (no padding, no `+`/`/`, no stray bits): the header and payload are signed as written,
    /// the signature is not, and a lenient decoding made many strings of one token.
    static func parts(of token: String) -> Parts? {
        guard token.utf8.count <= 16_384 else { return nil }
        let pieces = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map(Substring.init)
        guard pieces.count == 3,
            let headerData = Base64URL.decode(pieces[0]),
            let header = try? JSONDecoder().decode(Header.self, from: headerData), header.alg == "RS256", header.kid != nil,
            let signature = Base64URL.decode(pieces[2]), Base64URL.encode(signature) == pieces[2],
            let payload = Base64URL.decode(pieces[1])
        else { return nil }
        return Parts(header: header, encodedHeader: pieces[0], encodedPayload: pieces[1], signature: signature, payload: payload)
    }

    /// Whether `key` signed the token.
    static func isSigned(_ parts: Parts, by key: SigningKey) -> Bool {
        key.publicKey.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: parts.signature),
            for: Data("\(parts.encodedHeader).\(parts.encodedPayload)".utf8), padding: .insecurePKCS1v1_5)
    }
}
