import SwiftASN1
import X509

/// The requirements WebAuthn §8.2.1 sets on a `packed` attestation statement's leaf certificate.
enum PackedAttestationCertificate {
    /// id-fido-gen-ce-aaguid: the authenticator model's AAGUID, as an OCTET STRING.
    static let aaguidExtension: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4]
    static let organizationalUnit = "Authenticator Attestation"

    /// Parses `der` and checks it: X.509 version 3; a subject with C, O, CN and the OU
    /// "Authenticator Attestation"; Basic Constraints present with CA false; and, when the
    /// AAGUID extension is present, not critical and equal to `aaguid`. Throws `invalidAttestation`.
    static func check(_ der: [UInt8], aaguid: [UInt8]) throws(WebAuthnError) -> Certificate {
        let certificate: Certificate
        do { certificate = try Certificate(derEncoded: der) } catch {
            throw .malformed(.attestationCertificate, "not a DER X.509 certificate")
        }
        guard certificate.version == .v3 else { throw .invalidAttestation("the certificate is not X.509 version 3") }
        try checkSubject(certificate.subject)
        let basicConstraints: BasicConstraints?
        do { basicConstraints = try certificate.extensions.basicConstraints } catch {
            throw .invalidAttestation("the Basic Constraints extension does not parse")
        }
        switch basicConstraints {
        case nil: throw .invalidAttestation("the certificate has no Basic Constraints extension")
        case .isCertificateAuthority: throw .invalidAttestation("the certificate is a CA (Basic Constraints CA true)")
        case .notCertificateAuthority: break
        }
        if let extensionValue = certificate.extensions[oid: aaguidExtension] {
            guard !extensionValue.critical else { throw .invalidAttestation("the AAGUID extension is critical") }
            let certified: ASN1OctetString
            do { certified = try ASN1OctetString(derEncoded: extensionValue.value) } catch {
                throw .invalidAttestation("the AAGUID extension is not an OCTET STRING")
            }
            guard Array(certified.bytes) == aaguid else {
                throw .invalidAttestation("the certificate's AAGUID is not the authenticator data's")
            }
        }
        return certificate
    }

    private static func checkSubject(_ subject: DistinguishedName) throws(WebAuthnError) {
        var present: [ASN1ObjectIdentifier: [String]] = [:]
        for name in subject {
            for attribute in name { present[attribute.type, default: []].append(String(attribute.value) ?? "") }
        }
        let required: [(ASN1ObjectIdentifier, String)] = [
            (.RDNAttributeType.countryName, "C"), (.RDNAttributeType.organizationName, "O"),
            (.RDNAttributeType.commonName, "CN"),
        ]
        for (type, label) in required where present[type] == nil {
            throw .invalidAttestation("the certificate's subject has no \(label)")
        }
        guard present[.RDNAttributeType.organizationalUnitName]?.contains(organizationalUnit) == true else {
            throw .invalidAttestation("the certificate's subject has no OU \"\(organizationalUnit)\"")
        }
    }
}
