/// The outcome of a verified assertion: what the relying party updates and may record.
public struct VerifiedAssertion: Equatable, Sendable {
    public let credentialId: [UInt8]
    /// The counter to store for the credential from now on.
    public let signCount: UInt32
    public let flags: AuthenticatorFlags
    /// Authenticator extension outputs, when the authenticator sent any.
    public let authenticatorExtensions: CBORMap?

    public var isUserVerified: Bool { flags.contains(.userVerified) }
    /// BS: whether the credential is backed up now (it may change between assertions).
    public var isBackedUp: Bool { flags.contains(.backedUp) }
}
