import CognateIdentityProtocol
import CognateProtocol
import Foundation

/// Identities of identity pools: guests and signed-in users (GetId, GetOpenIdToken,
/// GetCredentialsForIdentity, UnlinkIdentity — public operations), their administration
/// (DescribeIdentity, ListIdentities, DeleteIdentities) and developer-authenticated identities
/// (GetOpenIdTokenForDeveloperIdentity, LookupDeveloperIdentity, MergeDeveloperIdentities,
/// UnlinkDeveloperIdentity — admin operations).
public struct FederatedIdentities: Sendable {
    let store: any Store
    let time: any TimeSource
    let configuration: CoreConfiguration
    let lookup: IdentityPoolLookup
    let logins: LoginVerifier
    let links: IdentityLinks
    let openIdTokens: OpenIdTokens
    let sts: STSCredentials

    /// What `/cognito-identity/.well-known/jwks.json` serves.
    public func jwks() async throws -> [String: [[String: String]]] { try await openIdTokens.jwks() }

    /// The issuer of the OpenID tokens (`<public URL>/cognito-identity`).
    public var issuer: String { openIdTokens.issuer }
}
