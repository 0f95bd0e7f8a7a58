import Foundation

/// Base64url without padding (RFC 4648 §5), as WebAuthn's JSON forms carry bytes.
enum Base64URL {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of `text`, or nil when it is not base64url (trailing padding is tolerated, as
    /// some servers and authenticators add it; the standard alphabet's `+` and `/` are not).
    static func decode(_ text: String) -> Data? {
        let unpadded = text.hasSuffix("=") ? String(text.prefix { $0 != "=" }) : text
        guard unpadded.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }),
            unpadded.count % 4 != 1
        else { return nil }
        var standard = unpadded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }
}
