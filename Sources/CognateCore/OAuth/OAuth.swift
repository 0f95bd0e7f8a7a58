import CognateProtocol
import Foundation

/// The OAuth 2.0 / OpenID Connect endpoints and the hosted pages' sign-in (by password, or by
/// choice: ``HostedChoiceSignIn``), sign-up, recovery and passkey addition
/// (``HostedPasskeyAddition``), driving the same use cases as the API.
public struct OAuth: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let cache: ConfigurationCache
    let tokens: TokenIssuer
    let accessTokens: AccessTokenVerifier
    let sealedFlows: SealedFlows
    let snapshots: any UserSnapshots
    let directory: PoolDirectory
    let allowances: RequestAllowances
    let authSessions: AuthSessionBook
    let tokenFamilies: TokenFamilies
    let signIn: SignIn
    let registration: Registration
    let mfaSettings: MfaSettings
    let sessions: Sessions
    let choice: HostedChoiceSignIn
    let passkeyAddition: HostedPasskeyAddition
    let hostedSessions: HostedSessions
    let metadataClients: MetadataDocumentClients
}

extension OAuth {
    /// The issuer of a pool's tokens.
    public func issuer(poolId: String) -> String { tokens.issuer(poolId: poolId) }

    /// The base URL clients reach this server at (the OAuth endpoints live under it).
    public var publicBaseURL: String { tokens.issuerBase }
}
