import Crypto
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How every webhook Cognate calls (message delivery, Lambda triggers) is signed, so the
/// receiver can tell Cognate's requests from anyone else's and refuse replays.
///
/// Contract: `X-Cognate-Timestamp` is the epoch second of sending and `X-Cognate-Signature` is
/// `v1=<hex HMAC-SHA256(secret, timestamp + "." + body)>`, the body as sent.
struct WebhookSignature: Sendable {
    let secret: SymmetricKey

    init(secret: String) { self.secret = SymmetricKey(data: Data(secret.utf8)) }

    /// A JSON `POST` of `body` to `url`, signed now.
    func request(to url: URL, body: Data, now: Date = Date()) -> URLRequest {
        let timestamp = String(Int(now.timeIntervalSince1970))
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(timestamp, forHTTPHeaderField: "X-Cognate-Timestamp")
        request.setValue("v1=" + signature(of: body, timestamp: timestamp), forHTTPHeaderField: "X-Cognate-Signature")
        return request
    }

    /// Hex HMAC-SHA256 of `timestamp.body`.
    func signature(of body: Data, timestamp: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data((timestamp + ".").utf8) + body, using: secret)
            .map { String(format: "%02x", $0) }.joined()
    }
}
