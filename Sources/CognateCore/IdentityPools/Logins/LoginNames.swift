import CognateProtocol
import Foundation

/// A Logins key naming a user pool: `cognito-idp.<region>.amazonaws.com/<user pool id>`, as
/// apps send it to Cognito (and as a pool's CognitoIdentityProviders name it).
struct UserPoolLoginName: Equatable {
    var region: String
    var poolId: String

    init?(_ name: String) {
        guard name.hasPrefix("cognito-idp."), let slash = name.firstIndex(of: "/") else { return nil }
        let host = name[..<slash]
        let pool = name[name.index(after: slash)...]
        guard host.hasSuffix(".amazonaws.com") else { return nil }
        let region = host.dropFirst("cognito-idp.".count).dropLast(".amazonaws.com".count)
        guard !region.isEmpty, !region.contains("."), !pool.isEmpty, !pool.contains("/"), pool.contains("_") else { return nil }
        self.region = String(region)
        self.poolId = String(pool)
    }
}

/// The Logins key of an OpenID Connect provider: its ARN's part after `oidc-provider/`, the
/// issuer's host and path (`arn:aws:iam::123456789012:oidc-provider/login.example.com` →
/// `login.example.com`).
enum OpenIdConnectProviderName {
    static let marker = ":oidc-provider/"

    static func name(arn: String) -> String? {
        guard arn.hasPrefix("arn:"), let range = arn.range(of: marker) else { return nil }
        let name = String(arn[range.upperBound...])
        return name.isEmpty ? nil : name
    }
}
