import Foundation

/// The current time, injected so rules about expiry and lockout are testable.
public protocol TimeSource: Sendable {
    var now: Date { get }
}

public struct SystemTime: TimeSource {
    public init() {}
    public var now: Date { Date() }
}
