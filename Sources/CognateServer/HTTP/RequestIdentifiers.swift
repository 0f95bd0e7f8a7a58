import Foundation

/// `x-amzn-RequestId` values: unique per request and across processes, shaped like a UUID, at
/// the cost of a counter increment (a random UUID per request reads the system's random source).
final class RequestIdentifiers: @unchecked Sendable {
    /// For requests that reach a route without the observation middleware (in-process tests).
    static let shared = RequestIdentifiers()

    private let lock = NSLock()
    private let prefix: String
    private var counter: UInt64 = 0

    init() {
        var random = SystemRandomNumberGenerator()
        let high = random.next()
        let hex = String(high, radix: 16).leftPadded(16)
        prefix = "\(hex.prefix(8))-\(hex.dropFirst(8).prefix(4))-4\(hex.dropFirst(13).prefix(3))-"
    }

    func next() -> String {
        let value = lock.withLock {
            counter &+= 1
            return counter
        }
        let hex = String(value, radix: 16).leftPadded(16)
        return prefix + hex.prefix(4) + "-" + hex.dropFirst(4)
    }
}

extension String {
    fileprivate func leftPadded(_ length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
