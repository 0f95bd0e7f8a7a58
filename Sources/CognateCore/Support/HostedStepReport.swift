import CognateProtocol
import Foundation

/// What one posted hosted page did, for the audit log and metrics: the app client whose flow it
/// continued — the flow's, never the words of the request's query — and, when the step was
/// refused (a wrong password or code, a refused sign-up), why. Set by the server around the
/// route (``RequestOrigin/hostedStep``); written by the hosted pages' use cases.
public final class HostedStepReport: @unchecked Sendable {
    private let lock = NSLock()
    private var flowClientId: String?
    private var refusedWith: String?

    public init() {}

    /// The app client of the flow the step continued; nil when no flow was opened.
    public var clientId: String? { lock.withLock { flowClientId } }
    /// The refusal's error type (`NotAuthorizedException`), or `refused` for a page's own
    /// refusal; nil when the step went through.
    public var refusal: String? { lock.withLock { refusedWith } }

    func record(clientId: String) { lock.withLock { flowClientId = clientId } }
    func refuse(_ type: String) { lock.withLock { refusedWith = type } }
}
