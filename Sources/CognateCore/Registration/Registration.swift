import CognateProtocol
import Foundation

/// Sign-up, its confirmation and resent codes, and password recovery — the public operations that
/// make or recover an account.
public struct Registration: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let configuration: CoreConfiguration
    let codes: CodeBook
    let directory: PoolDirectory
    let users: UserDirectory
    let allowances: RequestAllowances
    let decoys: Decoys
    let messenger: Messenger
    let triggerCalls: TriggerCalls
    let migration: UserMigration
    let passwords: Passwords
    let authEvents: AuthEventRecorder
    let triggers: Triggers
    let signUpSessions: SignUpSessions
}
