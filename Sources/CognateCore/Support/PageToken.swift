import CognateProtocol
import Foundation

/// Opaque pagination tokens: the key of the last item of a page, versioned and base64url
/// encoded. Keyset pagination makes them stable: items added or removed elsewhere in the
/// listing do not shift a page.
enum PageToken {
    private static let version = Data("v1:".utf8)

    static func encode(_ key: String?) -> String? {
        key.map { Base64URL.encode(version + Data($0.utf8)) }
    }

    /// The key `token` carries. Compared as bytes, not characters: a key that starts with
    /// combining marks makes one character of them and the version's colon.
    static func decode(_ token: String?) throws -> String? {
        guard let token else { return nil }
        guard let data = Base64URL.decode(token), data.starts(with: version),
            let key = String(data: data.dropFirst(version.count), encoding: .utf8)
        else { throw CognitoError.invalidParameter("Invalid pagination token.") }
        return key
    }
}
