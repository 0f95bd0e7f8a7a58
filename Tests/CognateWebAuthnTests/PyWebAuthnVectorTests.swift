import Testing

@testable import CognateWebAuthn

/// Responses recorded from browsers and authenticators, from py_webauthn's test suite
/// (see Vectors/README.md).
struct PyWebAuthnVectorTests {
    struct Document: Decodable {
        var rpId, origin: String
        var registrations: [Registration]
        var assertions: [Assertion]
    }

    struct Expected: Decodable {
        var format, credentialId, publicKey, aaguid, error: String?
        var signCount: UInt32?
        var unsupportedAlgorithm: Int?
    }

    struct Registration: Decodable {
        var name, challenge, attestationObject, clientDataJSON: String
        var expected: Expected
    }

    struct Assertion: Decodable {
        var name, credentialId, authenticatorData, clientDataJSON, signature, challenge, publicKey: String
        var userHandle: String?
        var storedSignCount: UInt32
        var requireUserVerification: Bool
        var expected: Expected
    }

    static let document = try! TestSupport.load(Document.self, from: "py_webauthn-vectors.json")
    static let relyingParty = RelyingParty(id: document.rpId, origins: ["https://cognate.test", document.origin])

    func register(_ vector: Registration) throws(WebAuthnError) -> RegisteredCredential {
        try RegistrationVerifier(relyingParty: Self.relyingParty).verify(
            attestationObject: [UInt8](base64URL: vector.attestationObject),
            clientDataJSON: [UInt8](base64URL: vector.clientDataJSON), expectedChallenge: [UInt8](base64URL: vector.challenge),
            requireUserVerification: false)
    }

    func authenticate(_ vector: Assertion) throws(WebAuthnError) -> VerifiedAssertion {
        let credentialId = [UInt8](base64URL: vector.credentialId)
        return try AssertionVerifier(relyingParty: Self.relyingParty).verify(
            credentialId: credentialId, authenticatorData: [UInt8](base64URL: vector.authenticatorData),
            clientDataJSON: [UInt8](base64URL: vector.clientDataJSON), signature: [UInt8](base64URL: vector.signature),
            userHandle: vector.userHandle.map { [UInt8](base64URL: $0) },
            credential: StoredCredential(
                id: credentialId, publicKey: [UInt8](base64URL: vector.publicKey), signCount: vector.storedSignCount),
            expectedChallenge: [UInt8](base64URL: vector.challenge), requireUserVerification: vector.requireUserVerification)
    }

    @Test func noneAttestationFromABrowser() throws {
        let vector = Self.document.registrations[0]
        let credential = try register(vector)
        #expect(credential.attestationFormat == vector.expected.format)
        #expect(credential.attestation == .none)
        #expect(credential.id == [UInt8](base64URL: vector.expected.credentialId!))
        #expect(credential.publicKey == [UInt8](base64URL: vector.expected.publicKey!))
        #expect(credential.signCount == vector.expected.signCount)
        #expect(credential.aaguidString == vector.expected.aaguid)
    }

    @Test func packedAttestationFromAYubiKey() throws {
        let vector = Self.document.registrations[1]
        let credential = try register(vector)
        #expect(credential.attestationFormat == "packed")
        #expect(credential.id == [UInt8](base64URL: vector.expected.credentialId!))
        #expect(credential.signCount == vector.expected.signCount)
        #expect(credential.aaguidString == vector.expected.aaguid)
        // The leaf carries the AAGUID extension, equal to the authenticator data's; its chain is not anchored.
        guard case .certificateNotAnchored(let chain) = credential.attestation else {
            Issue.record("\(credential.attestation)")
            return
        }
        #expect(chain.count == 1)
    }

    @Test func ed25519CredentialIsUnsupported() {
        let vector = Self.document.registrations[2]
        #expect(throws: WebAuthnError.unsupportedAlgorithm(vector.expected.unsupportedAlgorithm!)) { try register(vector) }
    }

    @Test(arguments: PyWebAuthnVectorTests.document.assertions.map(\.name))
    func recordedAssertion(name: String) throws {
        let vector = Self.document.assertions.first { $0.name == name }!
        switch (vector.expected.signCount, vector.expected.error, vector.expected.unsupportedAlgorithm) {
        case (let signCount?, _, _):
            #expect(try authenticate(vector).signCount == signCount)
        case (_, "invalidSignature", _):
            #expect(throws: WebAuthnError.invalidSignature) { try authenticate(vector) }
        case (_, "userVerificationMissing", _):
            #expect(throws: WebAuthnError.userVerificationMissing) { try authenticate(vector) }
        case (_, _, let alg?):
            #expect(throws: WebAuthnError.unsupportedAlgorithm(alg)) { try authenticate(vector) }
        default:
            Issue.record("no expectation for \(name)")
        }
    }
}
