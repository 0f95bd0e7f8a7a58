import Crypto
import Foundation

/// The first page of a hosted sign-in, sign-up or reset, carried by the page itself instead of
/// the store: its ``HostedFlowState`` sealed with a server key (HMAC-SHA256) and an expiry.
///
/// Contract: showing a first page stores nothing, so anonymous `GET /login` requests cannot
/// fill the database; the sealed state names the browser it was shown to (its
/// ``BrowserBinding`` digest), and only this server's key makes one. A sealed flow is not used
/// up by a step (it only ever opens the first page again, which anyone may request); every
/// flow after a submitted form is stored and used once, as before.
struct SealedFlows: Sendable {
    let key: SymmetricKey
    static let prefix = "s."

    private struct Envelope: Codable {
        var state: HostedFlowState
        /// Epoch seconds.
        var expires: Double
    }

    /// The key, derived from the server's code-hash key (every node has it, nothing new stored).
    init(serverKey: SymmetricKey) {
        key = SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Data("hosted-flow-seal".utf8), using: serverKey))
    }

    static func isSealed(_ flow: String) -> Bool { flow.hasPrefix(prefix) }

    func seal(_ state: HostedFlowState, expires: Date) throws -> String {
        let payload = Base64URL.encode(try JSONEncoder().encode(Envelope(state: state, expires: expires.timeIntervalSince1970)))
        let mac = HMAC<SHA256>.authenticationCode(for: Data(payload.utf8), using: key)
        return Self.prefix + payload + "." + Base64URL.encode(Data(mac))
    }

    /// The state `flow` carries, if this server sealed it and it has not expired.
    func open(_ flow: String, now: Date) -> HostedFlowState? {
        let parts = flow.dropFirst(Self.prefix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let mac = Base64URL.decode(parts[1]),
            HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Data(parts[0].utf8), using: key),
            let payload = Base64URL.decode(parts[0]),
            let envelope = try? JSONDecoder().decode(Envelope.self, from: payload),
            now.timeIntervalSince1970 < envelope.expires
        else { return nil }
        return envelope.state
    }
}
