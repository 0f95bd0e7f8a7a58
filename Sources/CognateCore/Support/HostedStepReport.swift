import CognateProtocol
import Foundation
import Synchronization

/// What one posted hosted page did, for the audit log and metrics: the app client whose flow it
/// continued — the flow's, never the words of the request's query — and, when the step was
/// refused (a wrong password or code, a refused sign-up), why. Set by the server around the
/// route (``RequestOrigin/hostedStep``); written by the hosted pages' use cases.
public final class HostedStepReport: Sendable {
    private let report = Mutex<(clientId: String?, refusal: String?)>((nil, nil))

    public init() {}

    /// The app client of the flow the step continued; nil when no flow was opened.
    public var clientId: String? { report.withLock { $0.clientId } }
    /// The refusal's error type (`NotAuthorizedException`), or `refused` for a page's own
    /// refusal; nil when the step went through.
    public var refusal: String? { report.withLock { $0.refusal } }

    func record(clientId: String) { report.withLock { $0.clientId = clientId } }
    func refuse(_ type: String) { report.withLock { $0.refusal = type } }
}
