/// The COSE signature algorithms (IANA "COSE Algorithms") this library verifies. Every
/// `PublicKeyCredentialCreationOptions` it builds offers these in `pubKeyCredParams`.
public enum COSEAlgorithm: Int, CaseIterable, Sendable {
    /// ECDSA over P-256 with SHA-256; the signature is ASN.1 DER `Ecdsa-Sig-Value`.
    case es256 = -7
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = -257
}
