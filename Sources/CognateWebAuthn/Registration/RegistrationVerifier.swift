import Crypto

/// Verifies a registration ceremony's response (WebAuthn §7.1) for one relying party.
///
/// It checks what can be checked without storage: client data (type, challenge, origin,
/// cross-origin use), the RP ID hash, the UP flag, the UV flag when required, the credential
/// key's algorithm, and the attestation statement. The caller must still make sure the
/// challenge was issued by it and is used once, and that the credential ID is not registered yet.
public struct RegistrationVerifier: Sendable {
    public var relyingParty: RelyingParty
    /// Algorithms accepted for the new credential's key: those offered in `pubKeyCredParams`.
    public var allowedAlgorithms: Set<COSEAlgorithm>
    public var unsupportedAttestation: UnsupportedAttestationPolicy

    public init(
        relyingParty: RelyingParty, allowedAlgorithms: Set<COSEAlgorithm> = Set(COSEAlgorithm.allCases),
        unsupportedAttestation: UnsupportedAttestationPolicy = .acceptAsNone
    ) {
        self.relyingParty = relyingParty
        self.allowedAlgorithms = allowedAlgorithms
        self.unsupportedAttestation = unsupportedAttestation
    }

    /// Verifies `attestationObject` and `clientDataJSON` (the response's bytes, already decoded
    /// from base64url) against the challenge the relying party issued, and returns the new
    /// credential. `transports` are the response's `getTransports()`, passed through.
    public func verify(
        attestationObject: [UInt8], clientDataJSON: [UInt8], transports: [String] = [], expectedChallenge: [UInt8],
        requireUserVerification: Bool
    ) throws(WebAuthnError) -> RegisteredCredential {
        _ = try relyingParty.verifyClientData(
            clientDataJSON, type: CollectedClientData.registrationType, challenge: expectedChallenge)
        let object = try AttestationObject(attestationObject)
        let authenticatorData = object.authenticatorData
        try relyingParty.verifyAuthenticatorData(authenticatorData, requireUserVerification: requireUserVerification)
        guard let credential = authenticatorData.attestedCredentialData else {
            throw .malformed(.authenticatorData, "a registration needs attested credential data (AT)")
        }
        let key = try COSEKey(encoded: credential.credentialPublicKey)
        guard allowedAlgorithms.contains(key.algorithm) else { throw .unsupportedAlgorithm(key.algorithm.rawValue) }

        let clientDataHash = Array(SHA256.hash(data: clientDataJSON))
        let trust = try attestationTrust(object, clientDataHash: clientDataHash, credentialKey: key)
        return RegisteredCredential(
            id: credential.credentialId, publicKey: credential.credentialPublicKey, algorithm: key.algorithm,
            signCount: authenticatorData.signCount, aaguid: credential.aaguid, transports: transports,
            flags: authenticatorData.flags, attestationFormat: object.format, attestation: trust,
            authenticatorExtensions: authenticatorData.extensions)
    }

    private func attestationTrust(
        _ object: AttestationObject, clientDataHash: [UInt8], credentialKey: COSEKey
    ) throws(WebAuthnError) -> AttestationTrust {
        switch object.format {
        case "none":
            guard object.statement.count == 0 else { throw .invalidAttestation("none: the statement is not empty") }
            return .none
        case "packed":
            do {
                return try PackedAttestation.verify(
                    object.statement, authenticatorData: object.authenticatorData, clientDataHash: clientDataHash,
                    credentialKey: credentialKey)
            } catch {
                guard case .unsupportedAttestationFormat = error, unsupportedAttestation == .acceptAsNone else { throw error }
                return .unverified
            }
        default:
            guard unsupportedAttestation == .acceptAsNone else { throw .unsupportedAttestationFormat(object.format) }
            return .unverified
        }
    }
}
