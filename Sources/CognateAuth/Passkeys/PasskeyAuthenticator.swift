import Foundation

/// What creates passkeys and signs in with them: the device's platform authenticator
/// (``PlatformPasskeyAuthenticator`` on Apple platforms), a security key, or a software one
/// in tests. It speaks WebAuthn's JSON forms, as a browser's `navigator.credentials` does, so
/// the SDK hands it the server's options unchanged and sends back what it returns.
///
/// ``PasskeyCreationOptions`` and ``PasskeyRequestOptions`` read the options, and
/// ``PasskeyRegistration`` and ``PasskeyAssertion`` write the answers, so an implementation
/// deals only in bytes. A failure (the user cancelled, no passkey for this relying party) is
/// thrown as it is; the SDK reports it as ``AuthError/authenticator(_:)``.
public protocol PasskeyAuthenticator: Sendable {
    /// Creates a passkey (`navigator.credentials.create()`).
    /// - Parameter optionsJSON: `PublicKeyCredentialCreationOptionsJSON`.
    /// - Returns: `RegistrationResponseJSON` (``PasskeyRegistration/json``).
    func createPasskey(optionsJSON: String) async throws -> String

    /// Signs a sign-in challenge with one of the allowed passkeys (`navigator.credentials.get()`).
    /// - Parameter optionsJSON: `PublicKeyCredentialRequestOptionsJSON`.
    /// - Returns: `AuthenticationResponseJSON` (``PasskeyAssertion/json``).
    func assertPasskey(optionsJSON: String) async throws -> String
}
