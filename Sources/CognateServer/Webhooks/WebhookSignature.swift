import Crypto
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How every webhook Cognate calls (message delivery, Lambda triggers) is signed, so the
/// receiver can tell Cognate's requests from anyone else's, refuse replays, and refuse a request
/// signed for another receiver.
///
/// Contract (version 2): `X-Cognate-Timestamp` is the epoch second of sending and
/// `X-Cognate-Signature` is `v2=<hex HMAC-SHA256(key, timestamp + "." + url + "." + body)>`:
/// `key` the receiver's own (`WebhookKeys`: per function ARN, per delivery medium), `url` the
/// target URL exactly as configured or bound, `body` as sent. The `v2=` names this scheme
/// (version 1 signed `timestamp.body` with the shared secret itself).
struct WebhookSignature: Sendable {
    let key: SymmetricKey

    /// A JSON `POST` of `body` to `url`, signed now.
    func request(to url: URL, body: Data, now: Date = Date()) -> URLRequest {
        let timestamp = String(Int(now.timeIntervalSince1970))
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(timestamp, forHTTPHeaderField: "X-Cognate-Timestamp")
        request.setValue(
            "v2=" + signature(of: body, url: url.absoluteString, timestamp: timestamp), forHTTPHeaderField: "X-Cognate-Signature")
        return request
    }

    /// Hex HMAC-SHA256 of `timestamp.url.body`.
    func signature(of body: Data, url: String, timestamp: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data("\(timestamp).\(url).".utf8) + body, using: key)
            .map { String(format: "%02x", $0) }.joined()
    }
}
