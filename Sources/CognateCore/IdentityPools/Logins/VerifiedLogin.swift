import CognateProtocol
import Foundation

/// One entry of a Logins map, verified: who the provider says the user is.
struct VerifiedLogin: Sendable, Equatable {
    /// The Logins key (`cognito-idp.<region>.amazonaws.com/<pool>`, `accounts.google.com`, an
    /// OIDC provider's name, the pool's developer provider name).
    var provider: String
    /// The provider's id of the user (`sub`, Facebook's user id, the developer's user identifier).
    var subject: String
    /// The entry of the OpenID token's `amr` after the provider's name, as Cognito writes it:
    /// `<provider>:<audience or pool>:<subject>` (`…/<pool>:CognitoSignIn:<sub>` for user pools).
    var amr: String
    /// The token's claims (role rules and principal tags read them); empty for developer logins.
    var claims: [String: JSONValue]
    /// The app client a user pool's token was issued to (role mappings are keyed
    /// `<provider>:<client id>`).
    var clientId: String?

    /// The key the pool's RoleMappings use for this login.
    var roleMappingKey: String { clientId.map { provider + ":" + $0 } ?? provider }
}

/// The Logins key under which apps hand back an OpenID token of developer-authenticated
/// identities (GetOpenIdTokenForDeveloperIdentity's), as with Cognito.
let developerTokenLoginName = "cognito-identity.amazonaws.com"
