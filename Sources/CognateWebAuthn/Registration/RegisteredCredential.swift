/// A credential a verified registration creates: what a relying party stores to check later
/// assertions (`id`, `publicKey`, `signCount`, `isBackupEligible`) and what it may show or audit.
public struct RegisteredCredential: Equatable, Sendable {
    public let id: [UInt8]
    /// The credential public key as a COSE_Key, as the authenticator encoded it.
    public let publicKey: [UInt8]
    public let algorithm: COSEAlgorithm
    public let signCount: UInt32
    /// The authenticator model's AAGUID (16 bytes, all zero when not disclosed).
    public let aaguid: [UInt8]
    /// The transports the client reported (`getTransports()`), passed through unchecked.
    public let transports: [String]
    public let flags: AuthenticatorFlags
    /// The attestation statement format the authenticator used, e.g. `none`, `packed`, `tpm`.
    public let attestationFormat: String
    public let attestation: AttestationTrust
    /// Authenticator extension outputs, when the authenticator sent any.
    public let authenticatorExtensions: CBORMap?

    /// The AAGUID in the usual UUID text form, lowercase.
    public var aaguidString: String { AttestedCredentialData.uuidString(aaguid) }
    public var isUserVerified: Bool { flags.contains(.userVerified) }
    /// BE: a multi-device credential ("synced passkey"); fixed for the credential's life.
    public var isBackupEligible: Bool { flags.contains(.backupEligible) }
    /// BS: backed up at registration time.
    public var isBackedUp: Bool { flags.contains(.backedUp) }
}
