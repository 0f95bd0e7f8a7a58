import CognateIdentityProtocol
import CognateProtocol
import Foundation

/// Identity pools (`cognito-identity`): their settings, roles, role mappings, principal tags
/// and tags. Admin operations (SigV4 outside dev mode).
public struct IdentityPoolAdministration: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let configuration: CoreConfiguration
    let lookup: IdentityPoolLookup
}
