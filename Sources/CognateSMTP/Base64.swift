import Foundation

/// Standard base64 (RFC 4648 §4, with padding), as SMTP `AUTH` and RFC 2047 "B" encoding use it.
enum Base64 {
    static func encode(_ bytes: some Sequence<UInt8>) -> String { Data(bytes).base64EncodedString() }
}
