import Crypto
import Foundation

/// The one script the hosted pages run: the passkey ceremonies (Scripts/passkeys.js, compiled
/// into the binary), inlined into the pages that need it and allowed by its SHA-256 alone in
/// their Content-Security-Policy — no `'unsafe-inline'`, no script from anywhere else. The
/// script takes everything a page fills in from the page's markup (escaped attributes), so its
/// text, and so its hash, never change from page to page.
enum HostedPageScript {
    static let source = String(decoding: PackageResources.passkeys_js, as: UTF8.self)

    /// `'sha256-…'`: the script's hash as a CSP source.
    static let hashSource = "'sha256-" + Data(SHA256.hash(data: Data(source.utf8))).base64EncodedString() + "'"
}
