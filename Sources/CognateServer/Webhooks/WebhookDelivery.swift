import CognateCore
import Crypto
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Email or SMS through an HTTPS endpoint of the operator's (an SMS gateway, a mail service):
/// the message as JSON, signed (`WebhookSignature`) with the medium's own key
/// (`WebhookKeys.emailWebhook`, `.smsWebhook`).
///
/// Contract: `POST <url>` with `{"poolId", "username", "medium", "destination", "subject",
/// "body", "code", "purpose", "sender"}`. 2xx is delivered; 408, 429 and 5xx (or no answer
/// within `timeout`) are temporary; any other status is permanent, a redirect too: it is never
/// followed (`OutboundHTTP`), the message and its signature go nowhere else.
final class WebhookDelivery: MessageDelivery {
    let url: URL
    let signature: WebhookSignature
    let session: URLSession

    init(url: URL, key: SymmetricKey, timeout: TimeInterval = 5) {
        self.url = url
        signature = WebhookSignature(key: key)
        session = OutboundHTTP.session(timeout: timeout)
    }

    func deliver(_ message: OutboundMessage) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let status: Int
        do {
            let (_, response) = try await session.data(for: signature.request(to: url, body: try encoder.encode(message)))
            status = (response as? HTTPURLResponse)?.statusCode ?? 0
        } catch {
            throw DeliveryFailure(isPermanent: false, reason: "the webhook did not answer (\((error as NSError).code))")
        }
        guard (200..<300).contains(status) else {
            let reason = "the webhook " + (OutboundHTTP.redirectRefusal(status) ?? "answered \(status)")
            throw DeliveryFailure(isPermanent: !(status == 408 || status == 429 || status >= 500), reason: reason)
        }
    }
}
