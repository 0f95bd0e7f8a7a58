import CognateProtocol
import Foundation

/// What the hosted pages are configured with: domains, resource servers, UI customization, managed
/// login branding, terms.
public struct ManagedLogin: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let configuration: CoreConfiguration
    let directory: PoolDirectory
}
