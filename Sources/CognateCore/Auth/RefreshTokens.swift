import CognateProtocol
import Crypto
import Foundation

/// Refresh tokens are 48 random bytes (base64url); only their SHA-256 is stored.
enum RefreshTokens {
    static func hash(_ token: String) -> String {
        SRPEncoding.hexString(SHA256.hash(data: Data(token.utf8)))
    }
}
