import Crypto
import CryptoExtras
import Testing

@testable import CognateWebAuthn

struct COSEKeyTests {
    static func ec2Key(
        _ key: P256.Signing.PublicKey, alg: Int = -7, crv: Int = 1, extra: [(CBORValue, CBORValue)] = []
    )
        -> [UInt8]
    {
        let point = Array(key.x963Representation)
        return CBORTestEncoder.encode(
            CBORTestEncoder.map(
                [
                    (.int(1), .int(2)), (.int(3), .int(alg)), (.int(-1), .int(crv)),
                    (.int(-2), .bytes(Array(point[1..<33]))), (.int(-3), .bytes(Array(point[33...]))),
                ] + extra))
    }

    static func rsaKey(n: [UInt8], e: [UInt8], alg: Int = -257) -> [UInt8] {
        CBORTestEncoder.encode(
            CBORTestEncoder.map([(.int(1), .int(3)), (.int(3), .int(alg)), (.int(-1), .bytes(n)), (.int(-2), .bytes(e))]))
    }

    @Test func es256KeyVerifiesDERSignaturesOnly() throws {
        let privateKey = P256.Signing.PrivateKey()
        let key = try COSEKey(encoded: Self.ec2Key(privateKey.publicKey))
        #expect(key.algorithm == .es256)
        let data = Array("signed by the credential".utf8)
        let signature = try privateKey.signature(for: data)
        try key.verify(signature: Array(signature.derRepresentation), over: data)
        #expect(throws: WebAuthnError.invalidSignature) {
            try key.verify(signature: Array(signature.derRepresentation), over: data + [0])
        }
        // The raw r ‖ s form is not WebAuthn's encoding.
        #expect(throws: WebAuthnError.invalidSignature) {
            try key.verify(signature: Array(signature.rawRepresentation), over: data)
        }
        #expect(throws: WebAuthnError.invalidSignature) { try key.verify(signature: [], over: data) }
    }

    @Test func rs256KeyVerifiesPKCS1Signatures() throws {
        let privateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let primitives = try privateKey.publicKey.getKeyPrimitives()
        let key = try COSEKey(encoded: Self.rsaKey(n: Array(primitives.modulus), e: Array(primitives.publicExponent)))
        #expect(key.algorithm == .rs256)
        let data = Array("signed by the credential".utf8)
        let signature = try privateKey.signature(for: data, padding: .insecurePKCS1v1_5)
        try key.verify(signature: Array(signature.rawRepresentation), over: data)
        let pss = try privateKey.signature(for: data, padding: .PSS)
        #expect(throws: WebAuthnError.invalidSignature) { try key.verify(signature: Array(pss.rawRepresentation), over: data) }
    }

    @Test func otherAlgorithmsAreUnsupported() {
        let publicKey = P256.Signing.PrivateKey().publicKey
        for alg in [-8, -35, -36, -37, -65535, 1] {
            #expect(throws: WebAuthnError.unsupportedAlgorithm(alg)) { try COSEKey(encoded: Self.ec2Key(publicKey, alg: alg)) }
        }
    }

    @Test func parametersThatDoNotFitTheAlgorithmAreRefused() throws {
        let publicKey = P256.Signing.PrivateKey().publicKey
        func refusal(_ bytes: [UInt8]) -> WebAuthnError? {
            do { _ = try COSEKey(encoded: bytes) } catch { return error }
            return nil
        }
        func isInvalidKey(_ error: WebAuthnError?) -> Bool {
            if case .invalidPublicKey = error { return true }
            return false
        }
        #expect(isInvalidKey(refusal(Self.ec2Key(publicKey, crv: 2))))  // P-384's curve id
        #expect(isInvalidKey(refusal(Self.ec2Key(publicKey, extra: [(.int(-4), .bytes([1]))]))))  // a private key
        let point = Array(publicKey.x963Representation)
        let shortX = CBORTestEncoder.encode(
            CBORTestEncoder.map([
                (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)),
                (.int(-2), .bytes(Array(point[2..<33]))), (.int(-3), .bytes(Array(point[33...]))),
            ]))
        #expect(isInvalidKey(refusal(shortX)))
        var offCurve = point
        offCurve[64] ^= 1
        let notOnCurve = CBORTestEncoder.encode(
            CBORTestEncoder.map([
                (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)),
                (.int(-2), .bytes(Array(offCurve[1..<33]))), (.int(-3), .bytes(Array(offCurve[33...]))),
            ]))
        #expect(isInvalidKey(refusal(notOnCurve)))
        let rsaKty = CBORTestEncoder.encode(
            CBORTestEncoder.map([(.int(1), .int(3)), (.int(3), .int(-7)), (.int(-1), .int(1))]))
        #expect(isInvalidKey(refusal(rsaKty)))
        #expect(isInvalidKey(refusal(CBORTestEncoder.encode(.array([])))))
        #expect(isInvalidKey(refusal(CBORTestEncoder.encode(CBORTestEncoder.map([(.int(1), .int(2))])))))
    }

    @Test func rsaModulusUnder2048BitsIsRefused() throws {
        let small = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
        let primitives = try small.publicKey.getKeyPrimitives()
        #expect(throws: WebAuthnError.invalidPublicKey("RSA modulus of 1024 bits; at least 2048 needed")) {
            try COSEKey(encoded: Self.rsaKey(n: Array(primitives.modulus), e: Array(primitives.publicExponent)))
        }
        // 2047 bits written in 256 bytes with a leading zero bit is still 2047 bits.
        let n2047 = [0x7f] + [UInt8](repeating: 0xff, count: 255)
        #expect(throws: WebAuthnError.invalidPublicKey("RSA modulus of 2047 bits; at least 2048 needed")) {
            try COSEKey(encoded: Self.rsaKey(n: n2047, e: [1, 0, 1]))
        }
    }

    @Test func rsaExponentMustBeOddAndAboveOne() throws {
        let n = [UInt8](repeating: 0xff, count: 256)
        let refusal = WebAuthnError.invalidPublicKey("RSA exponent must be odd, at least 3 and at most 64 bits")
        for e: [UInt8] in [[1], [0, 1], [2], [0], [1, 0, 0, 0, 0, 0, 0, 0, 1]] {
            #expect(throws: refusal) { try COSEKey(encoded: Self.rsaKey(n: n, e: e)) }
        }
        #expect(throws: WebAuthnError.invalidPublicKey("RSA needs n and e as byte strings")) {
            try COSEKey(encoded: Self.rsaKey(n: n, e: []))
        }
        // 3 is the smallest exponent accepted; the modulus here is no real key, but it parses.
        #expect(try COSEKey(encoded: Self.rsaKey(n: n, e: [0, 3])).algorithm == .rs256)
    }

    @Test func trailingBytesAfterTheKeyAreRefused() {
        let bytes = Self.ec2Key(P256.Signing.PrivateKey().publicKey) + [0]
        #expect(throws: WebAuthnError.malformedCBOR(.credentialPublicKey, .trailingBytes(offset: bytes.count - 1))) {
            try COSEKey(encoded: bytes)
        }
    }
}
