import Crypto
import Foundation

/// `SECRET_HASH` of an app client with a secret:
/// `base64(HMAC-SHA256(key: clientSecret, message: username + clientId))`.
public enum SecretHash {
    public static func compute(username: String, clientId: String, clientSecret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data((username + clientId).utf8), using: SymmetricKey(data: Data(clientSecret.utf8)))
        return Data(mac).base64EncodedString()
    }
}
