import CognateCore
import Crypto
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Email or SMS through an HTTPS endpoint of the operator's (an SMS gateway, a mail service):
/// the message as JSON, signed.
///
/// Contract: `POST <url>` with `{"poolId", "username", "medium", "destination", "subject",
/// "body", "code", "purpose"}`, `Content-Type: application/json`, `X-Cognate-Timestamp` (epoch
/// seconds) and `X-Cognate-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + body)>`, so
/// the receiver can check who sent it and refuse replays. 2xx is delivered; 408, 429 and 5xx
/// (or no answer within `timeout`) are temporary; any other status is permanent.
final class WebhookDelivery: MessageDelivery {
    let url: URL
    let secret: SymmetricKey
    let session: URLSession

    init(url: URL, secret: String, timeout: TimeInterval = 5) {
        self.url = url
        self.secret = SymmetricKey(data: Data(secret.utf8))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        session = URLSession(configuration: configuration)
    }

    func deliver(_ message: OutboundMessage) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = try encoder.encode(message)
        let timestamp = String(Int(Date().timeIntervalSince1970))
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(timestamp, forHTTPHeaderField: "X-Cognate-Timestamp")
        request.setValue("v1=" + Self.signature(of: body, timestamp: timestamp, secret: secret), forHTTPHeaderField: "X-Cognate-Signature")
        let status: Int
        do {
            let (_, response) = try await session.data(for: request)
            status = (response as? HTTPURLResponse)?.statusCode ?? 0
        } catch {
            throw DeliveryFailure(isPermanent: false, reason: "the webhook did not answer (\((error as NSError).code))")
        }
        guard (200..<300).contains(status) else {
            throw DeliveryFailure(isPermanent: !(status == 408 || status == 429 || status >= 500), reason: "the webhook answered \(status)")
        }
    }

    /// Hex HMAC-SHA256 of `timestamp.body`.
    static func signature(of body: Data, timestamp: String, secret: SymmetricKey) -> String {
        HMAC<SHA256>.authenticationCode(for: Data((timestamp + ".").utf8) + body, using: secret)
            .map { String(format: "%02x", $0) }.joined()
    }
}
