import Crypto

/// Verifies an authentication ceremony's assertion (WebAuthn §7.2) against a stored credential.
///
/// The caller finds the stored credential by the assertion's credential ID (and, when it named
/// the allowed credentials, checks the ID was one of them); it must make sure the challenge was
/// issued by it and is used once, and store the returned counter.
public struct AssertionVerifier: Sendable {
    public var relyingParty: RelyingParty

    public init(relyingParty: RelyingParty) { self.relyingParty = relyingParty }

    /// Verifies the assertion's parts (the response's bytes, already decoded from base64url):
    /// the credential and user handle match `credential` (an empty user handle counts as
    /// absent, as some clients send one for non-discoverable credentials), client data (type, challenge, origin,
    /// cross-origin use), the RP ID hash, UP, UV when required, BE as registered, the signature
    /// over authenticator data ‖ SHA-256(clientDataJSON), and the signature counter.
    public func verify(
        credentialId: [UInt8], authenticatorData: [UInt8], clientDataJSON: [UInt8], signature: [UInt8],
        userHandle: [UInt8]?, credential: StoredCredential, expectedChallenge: [UInt8], requireUserVerification: Bool
    ) throws(WebAuthnError) -> VerifiedAssertion {
        guard ConstantTime.equals(credentialId, credential.id) else { throw .credentialMismatch }
        if let userHandle, !userHandle.isEmpty, let owner = credential.userHandle, !ConstantTime.equals(userHandle, owner) {
            throw .userHandleMismatch
        }
        _ = try relyingParty.verifyClientData(
            clientDataJSON, type: CollectedClientData.assertionType, challenge: expectedChallenge)
        let parsed = try AuthenticatorData(authenticatorData)
        try relyingParty.verifyAuthenticatorData(parsed, requireUserVerification: requireUserVerification)
        if let registered = credential.isBackupEligible, registered != parsed.flags.contains(.backupEligible) {
            throw .backupEligibilityChanged(registered: registered, received: !registered)
        }
        let key = try COSEKey(encoded: credential.publicKey)
        try key.verify(signature: signature, over: authenticatorData + Array(SHA256.hash(data: clientDataJSON)))
        let signCount = try SignCounter.next(stored: credential.signCount, received: parsed.signCount)
        return VerifiedAssertion(
            credentialId: credentialId, signCount: signCount, flags: parsed.flags, authenticatorExtensions: parsed.extensions)
    }
}
