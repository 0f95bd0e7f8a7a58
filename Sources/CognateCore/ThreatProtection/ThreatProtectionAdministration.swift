import CognateProtocol
import Foundation

/// Threat protection as administrators and users manage it: auth events and feedback, risk
/// configurations, log delivery.
public struct ThreatProtectionAdministration: Sendable {
    let store: any Store
    let time: any TimeSource
    let configuration: CoreConfiguration
    let directory: PoolDirectory
    let users: UserDirectory
}
