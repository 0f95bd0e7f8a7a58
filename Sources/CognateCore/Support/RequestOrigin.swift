import Foundation
import Synchronization

/// Where the request being served comes from, and what its use case reports back to the
/// server: one ``RequestScope`` per request, bound by the server around the route (a task
/// local, so use cases need no extra parameter). Nil outside a request (tests, the CLI).
public enum RequestOrigin {
    @TaskLocal public static var scope: RequestScope?

    /// The client's network address as the server determined it (the peer, or the header of a
    /// trusted proxy).
    public static var clientAddress: String? { scope?.clientAddress }
    /// The request's `User-Agent` (what user sessions show as their device).
    public static var userAgent: String? { scope?.userAgent }
    /// Where the use case records the user an access token it verified speaks for (for the
    /// audit log: never taken from the request's own words). Nil: nobody asks.
    public static var verifiedCaller: VerifiedCaller? { scope?.verifiedCaller }
    /// Where a posted hosted page records its flow's client and its refusal. Nil: nobody asks.
    public static var hostedStep: HostedStepReport? { scope?.hostedStep }
}

/// One request's origin and the reports its use case leaves for the server's audit log and
/// metrics. One object and one task-local binding per request: every request pays for them.
public final class RequestScope: Sendable {
    public let clientAddress: String?
    public let userAgent: String?
    public let verifiedCaller = VerifiedCaller()
    public let hostedStep = HostedStepReport()

    public init(clientAddress: String?, userAgent: String?) {
        self.clientAddress = clientAddress
        self.userAgent = userAgent
    }
}

/// The user whose access token a request presented and the service verified (signature,
/// expiry, revocation).
public final class VerifiedCaller: Sendable {
    private let verified = Mutex<(sub: String, username: String)?>(nil)

    public init() {}

    public var user: (sub: String, username: String)? { verified.withLock { $0 } }

    func record(sub: String, username: String) { verified.withLock { $0 = (sub, username) } }
}
