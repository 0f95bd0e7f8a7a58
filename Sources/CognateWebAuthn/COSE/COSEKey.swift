import Crypto
import CryptoExtras

/// A credential public key in COSE_Key form (RFC 9052 §7, RFC 9053), as authenticator data
/// carries it and as a relying party stores it.
///
/// Accepted: EC2 (kty 2) on P-256 (crv 1) with alg -7, and RSA (kty 3) with alg -257 and a
/// modulus of at least 2048 bits. Any other `alg` is `WebAuthnError.unsupportedAlgorithm`; a
/// key whose parameters do not fit its algorithm is `WebAuthnError.invalidPublicKey`.
public struct COSEKey: Sendable {
    public enum Material: Sendable {
        case p256(P256.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
    }

    public let algorithm: COSEAlgorithm
    public let material: Material
    /// The COSE_Key encoding it was read from: what a relying party stores.
    public let encoded: [UInt8]

    /// Minimum RSA modulus size, in bits.
    public static let minimumRSABits = 2048

    private enum Label {
        static let kty = 1, alg = 3
        static let ec2Curve = -1, ec2X = -2, ec2Y = -3, ec2D = -4
        static let rsaN = -1, rsaE = -2, rsaD = -3
    }

    /// Parses a stored or received COSE_Key; the bytes must be exactly one CBOR map.
    public init(encoded bytes: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do { value = try CBORDecoder().decode(bytes) } catch { throw .malformedCBOR(.credentialPublicKey, error) }
        try self.init(value, encoded: bytes)
    }

    init(_ value: CBORValue, encoded: [UInt8]) throws(WebAuthnError) {
        guard let map = value.mapValue else { throw .invalidPublicKey("not a CBOR map") }
        guard let algValue = map[Label.alg] else { throw .invalidPublicKey("no alg (3)") }
        guard let algNumber = algValue.intValue else { throw .invalidPublicKey("alg is not an integer") }
        guard let algorithm = COSEAlgorithm(rawValue: algNumber) else { throw .unsupportedAlgorithm(algNumber) }
        guard let kty = map[Label.kty]?.intValue else { throw .invalidPublicKey("no integer kty (1)") }
        switch algorithm {
        case .es256:
            guard kty == 2 else { throw .invalidPublicKey("ES256 needs kty 2 (EC2), not \(kty)") }
            guard map[Label.ec2Curve]?.intValue == 1 else { throw .invalidPublicKey("ES256 needs crv 1 (P-256)") }
            guard map[Label.ec2D] == nil else { throw .invalidPublicKey("a private key (d) is present") }
            guard let x = map[Label.ec2X]?.bytesValue, let y = map[Label.ec2Y]?.bytesValue, x.count == 32, y.count == 32
            else { throw .invalidPublicKey("P-256 needs 32-byte x and y") }
            do {
                material = .p256(try P256.Signing.PublicKey(x963Representation: [0x04] + x + y))
            } catch {
                throw .invalidPublicKey("the point is not on P-256")
            }
        case .rs256:
            guard kty == 3 else { throw .invalidPublicKey("RS256 needs kty 3 (RSA), not \(kty)") }
            guard map[Label.rsaD] == nil else { throw .invalidPublicKey("a private key (d) is present") }
            guard let n = map[Label.rsaN]?.bytesValue, let e = map[Label.rsaE]?.bytesValue, !n.isEmpty, !e.isEmpty
            else { throw .invalidPublicKey("RSA needs n and e as byte strings") }
            let modulus = n.drop { $0 == 0 }
            let bits = modulus.first.map { modulus.count * 8 - $0.leadingZeroBitCount } ?? 0
            guard bits >= Self.minimumRSABits else {
                throw .invalidPublicKey("RSA modulus of \(bits) bits; at least \(Self.minimumRSABits) needed")
            }
            let exponent = e.drop { $0 == 0 }
            guard exponent.count <= 8, let low = exponent.last, low & 1 == 1, !exponent.elementsEqual([1]) else {
                throw .invalidPublicKey("RSA exponent must be odd, at least 3 and at most 64 bits")
            }
            do {
                material = .rsa(try _RSA.Signing.PublicKey(n: Array(modulus), e: e))
            } catch {
                throw .invalidPublicKey("RSA key refused by the crypto library")
            }
        }
        self.algorithm = algorithm
        self.encoded = encoded
    }

    /// Checks `signature` over `data` (for WebAuthn: authenticator data then the SHA-256 of
    /// the client data). ES256 signatures must be ASN.1 DER, as WebAuthn §6.5.5 prescribes;
    /// the raw 64-byte `r ‖ s` form is refused. Throws `WebAuthnError.invalidSignature`.
    public func verify(signature: [UInt8], over data: [UInt8]) throws(WebAuthnError) {
        guard Self.isValid(signature: signature, over: data, material: material) else { throw .invalidSignature }
    }

    static func isValid(signature: [UInt8], over data: [UInt8], material: Material) -> Bool {
        switch material {
        case .p256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: SHA256.hash(data: data))
        case .rsa(let key):
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: data),
                padding: .insecurePKCS1v1_5)
        }
    }
}
