import CognateProtocol
import Foundation

/// Users and groups as administrators manage them.
public struct UserAdministration: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let deliveryQueue: DeliveryQueue
    let directory: PoolDirectory
    let users: UserDirectory
    let messenger: Messenger
    let triggerCalls: TriggerCalls
    let passwords: Passwords
    let attributeEditor: AttributeEditor
    let tokenFamilies: TokenFamilies
    let mfaView: UserMfaView
}
