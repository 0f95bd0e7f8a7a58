import CognateProtocol
import CognateWebAuthn

extension Error {
    /// A WebAuthn verification failure of a registration as Cognito's CompleteWebAuthnRegistration
    /// names it; any other error unchanged.
    var cognitoError: any Error {
        guard let failure = self as? WebAuthnError else { return self }
        switch failure {
        case .challengeMismatch:
            return CognitoError(.webAuthnChallengeNotFound, "The passkey answers no registration challenge of this user.")
        case .originNotAllowed(let origin):
            return CognitoError(.webAuthnOriginNotAllowed, "The passkey's origin \(origin) is not allowed.")
        case .crossOriginNotAllowed, .topOriginNotAllowed:
            return CognitoError(.webAuthnOriginNotAllowed, "The passkey was created in a cross-origin frame.")
        case .relyingPartyMismatch:
            return CognitoError(.webAuthnRelyingPartyMismatch, "The passkey was created for another relying party.")
        case .unsupportedAlgorithm, .invalidPublicKey, .unsupportedAttestationFormat:
            return CognitoError(.webAuthnCredentialNotSupported, "The passkey is not supported: \(failure.summary).")
        case .invalidSignature, .userPresenceMissing, .userVerificationMissing, .clonedAuthenticator,
            .credentialMismatch, .userHandleMismatch, .backupEligibilityChanged:
            return CognitoError.notAuthorized("The passkey could not be verified: \(failure.summary).")
        case .malformed, .malformedCBOR, .unexpectedType, .invalidAttestation:
            return CognitoError.invalidParameter("The credential is malformed: \(failure.summary).")
        }
    }

    /// A WebAuthn verification failure of a sign-in (RespondToAuthChallenge names no WebAuthn
    /// errors): a malformed answer is InvalidParameterException, every other failure
    /// NotAuthorizedException; any other error unchanged.
    var signInError: any Error {
        guard let failure = self as? WebAuthnError else { return self }
        switch failure {
        case .malformed, .malformedCBOR, .unexpectedType:
            return CognitoError.invalidParameter("The credential is malformed: \(failure.summary).")
        default:
            return CognitoError.notAuthorized("The passkey could not be verified: \(failure.summary).")
        }
    }
}

extension WebAuthnError {
    /// What went wrong, in a few words, for error messages (never key material).
    var summary: String {
        switch self {
        case .malformedCBOR(let input, _): "\(input.rawValue) is not valid CBOR"
        case .malformed(let input, let detail): "\(input.rawValue): \(detail)"
        case .unexpectedType(let expected, _): "the client data's type is not \(expected)"
        case .challengeMismatch: "the challenge does not match"
        case .originNotAllowed(let origin): "the origin \(origin) is not allowed"
        case .crossOriginNotAllowed: "cross-origin use is not allowed"
        case .topOriginNotAllowed(let origin): "the top origin \(origin) is not allowed"
        case .relyingPartyMismatch: "the relying party ID does not match"
        case .userPresenceMissing: "the user was not present"
        case .userVerificationMissing: "the user was not verified"
        case .backupEligibilityChanged: "the backup eligibility flag changed"
        case .unsupportedAlgorithm(let algorithm): "the algorithm \(algorithm) is not supported"
        case .invalidPublicKey(let detail): "the public key is invalid (\(detail))"
        case .invalidSignature: "the signature does not verify"
        case .unsupportedAttestationFormat(let format): "the attestation format \(format) is not supported"
        case .invalidAttestation(let detail): "the attestation is invalid (\(detail))"
        case .credentialMismatch: "the credential is not the one asked for"
        case .userHandleMismatch: "the user handle is not this user's"
        case .clonedAuthenticator: "the signature counter did not increase (a cloned authenticator?)"
        }
    }
}
