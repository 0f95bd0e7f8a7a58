import CognateProtocol
import Foundation

/// Which addresses an app client may register as CallbackURLs, LogoutURLs and its
/// DefaultRedirectURI (Cognito's rules): an absolute URI without a fragment or wildcard;
/// `https`, or `http` only to this machine (`localhost`, `127.0.0.1`, `[::1]`, any port); or an
/// app's own scheme (`myapp://callback`) — never a scheme a browser runs or reads locally
/// (`javascript:`, `data:`, `file:` …). The default redirect must be one of the callbacks.
enum RedirectURLs {
    static let forbiddenSchemes: Set<String> = ["javascript", "data", "vbscript", "file", "blob", "about", "filesystem"]

    /// RFC 3986's unreserved, reserved and percent characters.
    static let uriCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")

    static func check(callbacks: [String]?, logouts: [String]?, defaultRedirect: String?) throws {
        for url in (callbacks ?? []) + (logouts ?? []) + (defaultRedirect.map { [$0] } ?? []) { try check(url) }
        if let defaultRedirect, !(callbacks ?? []).contains(defaultRedirect) {
            throw CognitoError.invalidParameter("DefaultRedirectURI \(defaultRedirect) must be one of the CallbackURLs.")
        }
    }

    static func check(_ url: String) throws {
        if url.contains("#") { throw CognitoError.invalidParameter("\(url) cannot contain a fragment.") }
        if url.contains("*") { throw CognitoError.invalidParameter("\(url) cannot contain a wildcard.") }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            !scheme.isEmpty, url.lowercased().hasPrefix(scheme + "://")
        else { throw CognitoError.invalidParameter("\(url) is not an absolute URL.") }
        if forbiddenSchemes.contains(scheme) { throw CognitoError.invalidParameter("\(url) cannot use the \(scheme) scheme.") }
        // Only RFC 3986's characters: a backslash, a space or a control character is read one
        // way here and another by browsers (`http://evil\@localhost/` goes to evil).
        guard url.unicodeScalars.allSatisfy(Self.uriCharacters.contains) else {
            throw CognitoError.invalidParameter("\(url) contains characters a URL cannot have.")
        }
        guard scheme == "http" || scheme == "https" else { return }   // an app's own scheme
        guard let host = components.host?.lowercased(), !host.isEmpty else {
            throw CognitoError.invalidParameter("\(url) is not an absolute URL.")
        }
        if scheme == "http", !["localhost", "127.0.0.1", "[::1]", "::1"].contains(host) {
            throw CognitoError.invalidParameter("\(url) cannot use the HTTP protocol.")
        }
    }
}
