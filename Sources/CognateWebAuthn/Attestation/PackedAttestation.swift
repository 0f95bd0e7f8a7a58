import Crypto
import CryptoExtras
import X509

/// Verification of the `packed` attestation statement format (WebAuthn §8.2):
/// `{alg, sig}` for self attestation, `{alg, sig, x5c}` for attestation by certificate.
enum PackedAttestation {
    /// Checks `sig` over authenticator data ‖ client data hash. Throws
    /// `unsupportedAttestationFormat` for what it cannot verify (ECDAA, an `alg` other than
    /// ES256 and RS256), `invalidAttestation` for a statement that breaks the format's rules.
    static func verify(
        _ statement: CBORMap, authenticatorData: AuthenticatorData, clientDataHash: [UInt8], credentialKey: COSEKey
    ) throws(WebAuthnError) -> AttestationTrust {
        guard let alg = statement["alg"]?.intValue else { throw .invalidAttestation("packed: no integer alg") }
        guard let signature = statement["sig"]?.bytesValue else { throw .invalidAttestation("packed: no bytes sig") }
        guard statement["ecdaaKeyId"] == nil else { throw .unsupportedAttestationFormat("packed (ECDAA)") }
        let signed = authenticatorData.bytes + clientDataHash

        guard let x5c = statement["x5c"] else {
            guard alg == credentialKey.algorithm.rawValue else {
                throw .invalidAttestation("packed self attestation: alg \(alg) is not the credential key's")
            }
            guard COSEKey.isValid(signature: signature, over: signed, material: credentialKey.material) else {
                throw .invalidAttestation("packed self attestation: the signature does not verify")
            }
            return .selfAttestation
        }

        guard let items = x5c.arrayValue, !items.isEmpty else {
            throw .invalidAttestation("packed: x5c is not a non-empty array")
        }
        var chain: [[UInt8]] = []
        for item in items {
            guard let der = item.bytesValue else { throw .invalidAttestation("packed: an x5c element is not bytes") }
            chain.append(der)
        }
        guard let algorithm = COSEAlgorithm(rawValue: alg) else {
            throw .unsupportedAttestationFormat("packed with alg \(alg)")
        }
        guard let aaguid = authenticatorData.attestedCredentialData?.aaguid else {
            throw .malformed(.authenticatorData, "no attested credential data")
        }
        let leaf = try PackedAttestationCertificate.check(chain[0], aaguid: aaguid)
        let material = try attestationKey(leaf.publicKey, algorithm: algorithm)
        guard COSEKey.isValid(signature: signature, over: signed, material: material) else {
            throw .invalidAttestation("packed: the signature does not verify with the certificate's key")
        }
        return .certificateNotAnchored(chain: chain)
    }

    private static func attestationKey(
        _ key: Certificate.PublicKey, algorithm: COSEAlgorithm
    ) throws(WebAuthnError) -> COSEKey.Material {
        switch algorithm {
        case .es256:
            guard let p256 = P256.Signing.PublicKey(key) else {
                throw .invalidAttestation("packed: alg ES256 but the certificate's key is not P-256")
            }
            return .p256(p256)
        case .rs256:
            guard let rsa = _RSA.Signing.PublicKey(key), rsa.keySizeInBits >= COSEKey.minimumRSABits else {
                throw .invalidAttestation("packed: alg RS256 but the certificate's key is not RSA of 2048 bits or more")
            }
            return .rsa(rsa)
        }
    }
}
