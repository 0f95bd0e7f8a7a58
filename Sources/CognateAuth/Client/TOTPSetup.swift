import Foundation

/// An authenticator app being set up: the secret the user enters in the app, or scans as a QR
/// code of ``setupURI(issuer:accountName:)``. Finish with a code the app shows:
/// ``AuthClient/verifyTOTPSetup(code:friendlyName:)`` when signed in, or
/// ``AuthClient/confirmSignIn(mfaCode:clientMetadata:)`` during a sign-in
/// (``SignInStep/totpSetup(_:)``).
///
/// The secret is not part of its descriptions (`print`, `dump`, debugger).
public struct TOTPSetup: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// Base32, as authenticator apps take it.
    public var sharedSecret: String

    public init(sharedSecret: String) { self.sharedSecret = sharedSecret }

    /// `otpauth://totp/<issuer>:<account>?secret=…&issuer=…`, the key-URI format authenticator
    /// apps read from QR codes.
    public func setupURI(issuer: String, accountName: String) -> URL? {
        var components = URLComponents()
        components.scheme = "otpauth"
        components.host = "totp"
        components.path = "/\(issuer):\(accountName)"
        components.queryItems = [URLQueryItem(name: "secret", value: sharedSecret), URLQueryItem(name: "issuer", value: issuer)]
        return components.url
    }

    public var description: String { "TOTPSetup(…)" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
