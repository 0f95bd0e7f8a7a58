/// What a registration does with an attestation statement this library cannot verify: formats
/// other than `none` and `packed` (`fido-u2f`, `tpm`, `android-key`, `android-safetynet`,
/// `apple`…), and `packed` statements in other algorithms than ES256 and RS256.
public enum UnsupportedAttestationPolicy: Sendable {
    /// Accept the registration without trusting the statement (`AttestationTrust.unverified`),
    /// reporting its format: what a relying party asking for attestation `none` does, since
    /// some authenticators attest anyway. The default.
    case acceptAsNone
    /// Refuse it with `WebAuthnError.unsupportedAttestationFormat`.
    case reject
}
