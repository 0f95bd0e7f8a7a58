import Crypto
import Foundation

/// Refresh tokens are 48 random bytes (base64url); only their SHA-256 is stored.
enum RefreshTokens {
    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}
