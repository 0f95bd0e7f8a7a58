import CognateProtocol
import Foundation

/// The claims of a JWT, read without verifying its signature.
///
/// The SDK only reads its own tokens, freshly received over TLS from the pool, to learn who
/// signed in; anything that grants access (an API behind the tokens) must verify them.
struct JWTPayload {
    let claims: [String: JSONValue]

    init?(token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Self.base64URLDecode(parts[1]),
            let claims = try? JSONDecoder().decode([String: JSONValue].self, from: data)
        else { return nil }
        self.claims = claims
    }

    func string(_ name: String) -> String? {
        switch claims[name] {
        case .string(let value)?: return value
        case .bool(let value)?: return value ? "true" : "false"
        case .number(let value)?: return value == value.rounded() ? String(Int64(value)) : String(value)
        default: return nil
        }
    }

    static func base64URLDecode(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
