import Foundation

/// Base URLs standing in for identity providers' hosts (the `identity_provider_urls` setting,
/// which identity pools read by Logins name). Federation calls a provider's URL on the base
/// configured for its host, keeping the path and query: `https://graph.facebook.com/v17.0/me?…`
/// with `graph.facebook.com=http://127.0.0.1:8081` is `http://127.0.0.1:8081/v17.0/me?…`.
/// A provider's other hosts fall back to the Logins name identity pools know it by, so one
/// name covers a provider: Google's API hosts to `accounts.google.com`, `www.facebook.com` to
/// `graph.facebook.com`, `api.amazon.com` to `www.amazon.com`.
struct ProviderURLOverrides: Sendable {
    let bases: [String: String]

    static let aliases: [String: String] = [
        "www.googleapis.com": "accounts.google.com", "people.googleapis.com": "accounts.google.com",
        "oauth2.googleapis.com": "accounts.google.com", "openidconnect.googleapis.com": "accounts.google.com",
        "www.facebook.com": "graph.facebook.com", "api.amazon.com": "www.amazon.com",
    ]

    /// `url` on its host's configured base, or as it is.
    func resolve(_ url: URL) -> URL {
        guard !bases.isEmpty, url.scheme == "https", let host = url.host?.lowercased(),
            let base = bases[host] ?? Self.aliases[host].flatMap({ bases[$0] }),
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        let root = base.hasSuffix("/") ? String(base.dropLast()) : base
        return URL(string: root + components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")) ?? url
    }
}
