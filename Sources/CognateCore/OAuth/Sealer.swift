import Crypto
import Foundation

/// Values the browser carries instead of the store: JSON with an expiry, signed (HMAC-SHA256)
/// with a key of their own purpose, derived from the server's code-hash key (every node has
/// it, nothing new stored). Only this server's key makes one; a value of one purpose never
/// opens as another's.
struct Sealer: Sendable {
    let key: SymmetricKey

    private struct Envelope<Value: Codable>: Codable {
        var state: Value
        /// Epoch seconds.
        var expires: Double
    }

    init(serverKey: SymmetricKey, purpose: String) {
        key = SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Data(purpose.utf8), using: serverKey))
    }

    /// `payload.mac`, both base64url.
    func seal<Value: Codable>(_ value: Value, expires: Date) throws -> String {
        let payload = Base64URL.encode(try JSONEncoder().encode(Envelope(state: value, expires: expires.timeIntervalSince1970)))
        let mac = HMAC<SHA256>.authenticationCode(for: Data(payload.utf8), using: key)
        return payload + "." + Base64URL.encode(Data(mac))
    }

    /// The value `sealed` carries, if this key sealed it and it has not expired.
    func open<Value: Codable>(_ sealed: Substring, as: Value.Type, now: Date) -> Value? {
        let parts = sealed.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let mac = Base64URL.decode(parts[1]),
            HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Data(parts[0].utf8), using: key),
            let payload = Base64URL.decode(parts[0]),
            let envelope = try? JSONDecoder().decode(Envelope<Value>.self, from: payload),
            now.timeIntervalSince1970 < envelope.expires
        else { return nil }
        return envelope.state
    }
}
