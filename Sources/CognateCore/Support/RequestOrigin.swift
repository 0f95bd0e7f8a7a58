import Foundation

/// Where the request being served comes from, set by the server around each use case (a task
/// local, so use cases need no extra parameter). Nil outside a request (tests, the CLI).
public enum RequestOrigin {
    /// The client's network address as the server determined it (the peer, or the header of a
    /// trusted proxy).
    @TaskLocal public static var clientAddress: String?
    /// The request's `User-Agent` (what user sessions show as their device).
    @TaskLocal public static var userAgent: String?
    /// Where the use case records the user an access token it verified speaks for (for the
    /// audit log: never taken from the request's own words). Nil: nobody asks.
    @TaskLocal public static var verifiedCaller: VerifiedCaller?
    /// Where a posted hosted page records its flow's client and its refusal. Nil: nobody asks.
    @TaskLocal public static var hostedStep: HostedStepReport?
}

/// The user whose access token a request presented and the service verified (signature,
/// expiry, revocation).
public final class VerifiedCaller: @unchecked Sendable {
    private let lock = NSLock()
    private var verified: (sub: String, username: String)?

    public init() {}

    public var user: (sub: String, username: String)? { lock.withLock { verified } }

    func record(sub: String, username: String) { lock.withLock { verified = (sub, username) } }
}
