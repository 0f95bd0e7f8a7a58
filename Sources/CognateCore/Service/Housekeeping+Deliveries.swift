import CognateProtocol
import Foundation

extension Housekeeping {
    /// Retries the queued messages that are due (every node, about once a second); returns how
    /// many went out.
    @discardableResult
    public func retryDeliveries() async throws -> Int { try await deliveryQueue.retryDue() }
}
