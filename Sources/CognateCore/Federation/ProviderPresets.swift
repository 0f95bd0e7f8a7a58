import CognateProtocol
import Foundation

/// Cognito's social provider types (Google, Facebook, LoginWithAmazon, SignInWithApple): the
/// ProviderDetails a creator gives, what Cognito fills in (and DescribeIdentityProvider then
/// shows), the claim that names the provider's user, and what the authorization request adds.
/// The values are those of Cognito's API reference (IdentityProviderType.ProviderDetails,
/// "Describe response" per type).
enum ProviderPreset {
    static let socialTypes: [IdentityProviderTypeType] = [.google, .facebook, .loginWithAmazon, .signInWithApple]

    static func isSocial(_ type: IdentityProviderTypeType) -> Bool { socialTypes.contains(type) }

    /// The keys a creator must give; Cognito names them all when one is missing.
    static func requiredKeys(of type: IdentityProviderTypeType) -> [String] {
        switch type {
        case .signInWithApple: ["client_id", "team_id", "key_id", "private_key", "authorize_scopes"]
        case .google, .facebook, .loginWithAmazon: ["client_id", "client_secret", "authorize_scopes"]
        default: ["client_id", "authorize_scopes"]
        }
    }

    /// Cognito's refusal of details that lack a required key: "client_id, client_secret and
    /// authorize_scopes are all required idp details".
    static func missingKeyMessage(of type: IdentityProviderTypeType) -> String {
        let keys = requiredKeys(of: type)
        return keys.dropLast().joined(separator: ", ") + " and " + keys.last! + " are all required idp details"
    }

    /// A Facebook Graph API version as Facebook names them (`v17.0`); it becomes part of URLs.
    static func isGraphAPIVersion(_ version: String) -> Bool {
        let parts = version.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        return version.hasPrefix("v") && parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCIIDigit) }
    }

    /// The details as stored: the creator's, with Cognito's endpoints and settings for the type
    /// (these win over any given, as Cognito fills them in itself).
    static func completed(_ details: [String: String], type: IdentityProviderTypeType) -> [String: String] {
        var filled = details
        let preset: [String: String]
        switch type {
        case .google:
            preset = [
                "attributes_url": "https://people.googleapis.com/v1/people/me?personFields=",
                "attributes_url_add_attributes": "true",
                "authorize_url": "https://accounts.google.com/o/oauth2/v2/auth",
                "oidc_issuer": "https://accounts.google.com",
                "token_request_method": "POST",
                "token_url": "https://www.googleapis.com/oauth2/v4/token",
            ]
        case .facebook:
            // Without api_version the unversioned Graph API (the app's oldest available version).
            let version = details["api_version"].map { "/" + $0 } ?? ""
            preset = [
                "attributes_url": "https://graph.facebook.com\(version)/me?fields=",
                "attributes_url_add_attributes": "true",
                "authorize_url": "https://www.facebook.com\(version)/dialog/oauth",
                "token_request_method": "GET",
                "token_url": "https://graph.facebook.com\(version)/oauth/access_token",
            ]
        case .loginWithAmazon:
            preset = [
                "attributes_url": "https://api.amazon.com/user/profile",
                "attributes_url_add_attributes": "false",
                "authorize_url": "https://www.amazon.com/ap/oa",
                "token_request_method": "POST",
                "token_url": "https://api.amazon.com/auth/o2/token",
            ]
        case .signInWithApple:
            preset = [
                "attributes_url_add_attributes": "false",
                "authorize_url": "https://appleid.apple.com/auth/authorize",
                "oidc_issuer": "https://appleid.apple.com",
                "token_request_method": "POST",
                "token_url": "https://appleid.apple.com/auth/token",
            ]
        default:
            return details
        }
        filled.merge(preset) { $1 }
        return filled
    }

    /// The details as the API shows them: Cognito never shows Apple's private key.
    static func shown(_ details: [String: String], type: IdentityProviderTypeType) -> [String: String] {
        type == .signInWithApple ? details.filter { $0.key != "private_key" } : details
    }

    /// The provider claim that names its user (Cognito adds it to the mapping as `username`):
    /// Facebook's `id`, Login with Amazon's `user_id`, `sub` otherwise.
    static func usernameClaim(of type: IdentityProviderTypeType) -> String {
        switch type {
        case .facebook: "id"
        case .loginWithAmazon: "user_id"
        default: "sub"
        }
    }

    /// The mapping as stored: a social provider's gains `username` → its user claim, as Cognito's does.
    static func completedMapping(_ mapping: [String: String], type: IdentityProviderTypeType) -> [String: String] {
        guard isSocial(type), mapping["username"] == nil else { return mapping }
        var completed = mapping
        completed["username"] = usernameClaim(of: type)
        return completed
    }

    /// The provider's user in its claims: the claim the mapping names for `username`, else the
    /// type's (an OIDC provider's `sub`, or `id` where a provider has no `sub`).
    static func subject(in claims: [String: String], provider: IdentityProviderRecord) -> String? {
        if let claim = provider.attributeMapping["username"] { return claims[claim] }
        return claims[usernameClaim(of: provider.type)] ?? claims["id"]
    }

    /// Parameters the type's authorization request adds: Apple answers with a form post when
    /// scopes are asked for (`response_mode=form_post`).
    static func authorizeParameters(of type: IdentityProviderTypeType) -> [(String, String)] {
        type == .signInWithApple ? [("response_mode", "form_post")] : []
    }
}
