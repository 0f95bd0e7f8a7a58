/// How a sign-out went. Local tokens are always gone afterwards; this says whether the server
/// also ended the session (so a stolen refresh token stops working).
public enum SignOutResult: Sendable {
    /// The server revoked the session (or there was nothing to revoke).
    case complete
    /// Only the local part happened: the server could not be told. The tokens stay valid on
    /// the server until they expire; tell the user, or retry a global sign-out when next
    /// signed in.
    case localOnly(AuthError)

    public var signedOutOnServer: Bool {
        if case .complete = self { return true }
        return false
    }
}
