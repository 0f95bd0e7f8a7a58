/// Why a registration or an assertion was refused. Every refusal of the library is one of
/// these; none is a crash.
///
/// A server maps them onto its own errors; for a Cognito-compatible one the natural mapping is:
/// `challengeMismatch` → WebAuthnChallengeNotFoundException (the response answers no challenge
/// the server issued); `originNotAllowed`, `crossOriginNotAllowed`, `topOriginNotAllowed` →
/// WebAuthnOriginNotAllowedException; `relyingPartyMismatch` → WebAuthnRelyingPartyMismatchException;
/// `unsupportedAlgorithm`, `invalidPublicKey`, `unsupportedAttestationFormat` →
/// WebAuthnCredentialNotSupportedException; `invalidSignature`, `userPresenceMissing`,
/// `userVerificationMissing`, `clonedAuthenticator`, `credentialMismatch`, `userHandleMismatch`,
/// `backupEligibilityChanged` → NotAuthorizedException; the `malformed…`, `unexpectedType` and
/// `invalidAttestation` cases → InvalidParameterException.
public enum WebAuthnError: Error, Equatable, Sendable {
    /// A CBOR structure that the strict decoder refuses.
    case malformedCBOR(WebAuthnInput, CBORError)
    /// An input that is not shaped as WebAuthn defines it (lengths, types, missing fields).
    case malformed(WebAuthnInput, String)

    /// The client data's `type` is not the ceremony's (`webauthn.create` or `webauthn.get`).
    case unexpectedType(expected: String, received: String)
    /// The client data's `challenge` is not the one the relying party issued.
    case challengeMismatch
    /// The client data's `origin` is not one of the relying party's origins.
    case originNotAllowed(String)
    /// The client data says `crossOrigin: true` and the relying party does not allow it.
    case crossOriginNotAllowed
    /// The client data names a `topOrigin` the relying party does not allow.
    case topOriginNotAllowed(String)

    /// The authenticator data's RP ID hash is not the SHA-256 of the relying party's ID.
    case relyingPartyMismatch
    /// The UP flag is not set.
    case userPresenceMissing
    /// User verification is required and the UV flag is not set.
    case userVerificationMissing
    /// The BE flag differs from the one recorded at registration (it never changes for a credential).
    case backupEligibilityChanged(registered: Bool, received: Bool)

    /// A COSE algorithm this library does not verify, or that the relying party does not allow.
    case unsupportedAlgorithm(Int)
    /// A COSE key whose parameters do not describe a usable key for its algorithm.
    case invalidPublicKey(String)
    /// The signature (assertion or attestation) does not verify.
    case invalidSignature

    /// An attestation statement format this library does not verify, refused by the policy.
    case unsupportedAttestationFormat(String)
    /// An attestation statement (or its certificate) that breaks its format's rules.
    case invalidAttestation(String)

    /// The assertion is for another credential than the stored one it is checked against.
    case credentialMismatch
    /// The assertion's user handle is not the one stored with the credential.
    case userHandleMismatch
    /// The signature counter did not increase: the credential may have been cloned (WebAuthn §6.1.1).
    case clonedAuthenticator(storedSignCount: UInt32, receivedSignCount: UInt32)
}

/// The part of a response an error is about.
public enum WebAuthnInput: String, Sendable {
    case attestationObject, attestationStatement, attestationCertificate
    case authenticatorData, credentialPublicKey, extensions
    case clientDataJSON
    case signature, userHandle
}
