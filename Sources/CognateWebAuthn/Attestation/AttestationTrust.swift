/// What a verified attestation statement establishes about the new credential's authenticator.
/// No case implies a trusted authenticator model: this library anchors no certificate chain.
public enum AttestationTrust: Equatable, Sendable {
    /// Format `none`: no statement was made.
    case none
    /// `packed` self attestation: signed with the credential's own key, which proves only that
    /// the authenticator holds that key.
    case selfAttestation
    /// `packed` with `x5c`: the statement verifies with the leaf certificate's key and the leaf
    /// meets WebAuthn §8.2.1's requirements, but the chain (DER, leaf first) was not verified up
    /// to any trust anchor. A caller that trusts some roots can check it later.
    case certificateNotAnchored(chain: [[UInt8]])
    /// A statement this library does not verify (another format, or `packed` in an algorithm
    /// it does not verify), accepted as if it were `none` under `UnsupportedAttestationPolicy.acceptAsNone`.
    case unverified
}
