import Crypto
import Foundation

/// The first page of a hosted sign-in, sign-up or reset, carried by the page itself instead of
/// the store: its ``HostedFlowState`` sealed (``Sealer``) with an expiry.
///
/// Contract: showing a first page stores nothing, so anonymous `GET /login` requests cannot
/// fill the database; the sealed state names the browser it was shown to (its
/// ``BrowserBinding`` digest), and only this server's key makes one. A sealed flow is not used
/// up by a step (it only ever opens the first page again, which anyone may request); every
/// flow after a submitted form is stored and used once, as before.
struct SealedFlows: Sendable {
    let sealer: Sealer
    static let prefix = "s."

    init(serverKey: SymmetricKey) {
        sealer = Sealer(serverKey: serverKey, purpose: "hosted-flow-seal")
    }

    static func isSealed(_ flow: String) -> Bool { flow.hasPrefix(prefix) }

    func seal(_ state: HostedFlowState, expires: Date) throws -> String {
        Self.prefix + (try sealer.seal(state, expires: expires))
    }

    /// The state `flow` carries, if this server sealed it and it has not expired.
    func open(_ flow: String, now: Date) -> HostedFlowState? {
        sealer.open(flow.dropFirst(Self.prefix.count), as: HostedFlowState.self, now: now)
    }
}
