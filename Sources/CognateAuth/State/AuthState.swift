/// What the app should show, as the ``AuthClient`` knows it.
public enum AuthState: Sendable, Equatable {
    /// Nobody is signed in on this profile.
    case signedOut
    case signedIn(AuthUser)
    /// The server refused to refresh the session (signed out elsewhere, revoked, disabled, or
    /// the refresh token expired). Emitted exactly then — never for network failures — and
    /// kept until the next sign-in. Local tokens are gone.
    case sessionExpired
    /// A ``RegistrationFlow`` is under way on this profile (waiting for a code, or signed in
    /// with an incomplete profile): resume it.
    case registrationIncomplete
    /// The ``TokenStore`` could not be read, so whether anyone is signed in is unknown — e.g.
    /// the Keychain of an iPhone that restarted and has not been unlocked yet (an app launched
    /// in the background). Never taken for `signedOut` and never remembered: the next
    /// ``AuthClient/state()`` reads the store again, and ``AuthClient/reloadState()`` does so
    /// on request (call it when protected data becomes available).
    case storageUnavailable
}
