import CognateProtocol
import Foundation

/// Identity providers: their configuration, sign-in through them, and links between their users and
/// the pool's.
public struct Federation: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let configuration: CoreConfiguration
    let cache: ConfigurationCache
    let keys: SigningKeyRing
    let upstream: any UpstreamHTTP
    let discovery: DiscoveryDocuments
    let log: @Sendable (String) -> Void
    let directory: PoolDirectory
    let users: UserDirectory
    let allowances: RequestAllowances
    let authSessions: AuthSessionBook
    let tokenFamilies: TokenFamilies
    let completion: SignInCompletion
    let oauth: OAuth
    let triggerCalls: TriggerCalls
}
