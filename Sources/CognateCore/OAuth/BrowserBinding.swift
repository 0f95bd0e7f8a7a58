import Crypto
import Foundation

/// The browser a hosted or federated sign-in runs in: a random value the server keeps in an
/// `HttpOnly`, `SameSite=Lax` cookie of that browser.
///
/// Contract: every flow records the binding's digest when it starts, and every later step of
/// the flow must come with the same cookie. A form posted from another site, or a link to
/// `/oauth2/idpresponse` that completes someone else's upstream sign-in (RFC 6749 §10.12), comes
/// without it and is refused. The value itself is never stored.
public struct BrowserBinding: Sendable, Equatable {
    public let cookieValue: String

    /// The binding a cookie carries; nil when it is missing or could not be one of ours.
    public init?(cookieValue: String?) {
        guard let cookieValue, cookieValue.utf8.count == 43, Base64URL.decode(cookieValue)?.count == 32 else { return nil }
        self.cookieValue = cookieValue
    }

    /// A new binding for a browser that has none.
    public static func new(_ random: any RandomSource = SystemRandom()) -> BrowserBinding {
        BrowserBinding(cookieValue: Base64URL.encode(random.bytes(32)))!
    }

    /// What flows store.
    var digest: String { SHA256.hash(data: Data(cookieValue.utf8)).map { String(format: "%02x", $0) }.joined() }

    /// Whether a flow that recorded `digest` belongs to this browser.
    func matches(_ digest: String?) -> Bool {
        guard let digest else { return false }
        return ConstantTime.equals(Array(self.digest.utf8), Array(digest.utf8))
    }
}
