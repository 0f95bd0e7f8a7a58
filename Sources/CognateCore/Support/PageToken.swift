import CognateProtocol
import Foundation

/// Opaque pagination tokens: the key of the last item of a page, versioned and base64url
/// encoded. Keyset pagination makes them stable: items added or removed elsewhere in the
/// listing do not shift a page.
enum PageToken {
    static func encode(_ key: String?) -> String? {
        key.map { Base64URL.encode(Data("v1:\($0)".utf8)) }
    }

    static func decode(_ token: String?) throws -> String? {
        guard let token else { return nil }
        guard let data = Base64URL.decode(token), let text = String(data: data, encoding: .utf8),
            text.hasPrefix("v1:")
        else { throw CognitoError.invalidParameter("Invalid pagination token.") }
        return String(text.dropFirst(3))
    }
}
