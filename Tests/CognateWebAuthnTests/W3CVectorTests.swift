import Testing

@testable import CognateWebAuthn

/// The examples of WebAuthn Level 3 §16 "Test Vectors" (see Vectors/README.md).
struct W3CVectorTests {
    struct Document: Decodable {
        var rpId, origin, topOrigin, attestationCACertificate: String
        var examples: [Example]
    }

    struct Example: Decodable {
        var title, id: String
        var registration, authentication: [String: String]

        func bytes(_ ceremony: KeyPath<Example, [String: String]>, _ key: String) -> [UInt8] {
            [UInt8](hex: self[keyPath: ceremony][key]!)
        }
    }

    static let document = try! TestSupport.load(Document.self, from: "w3c-vectors.json")
    static let relyingParty = RelyingParty(id: document.rpId, origins: [document.origin])

    static func example(_ suffix: String) -> Example {
        document.examples.first { $0.id == "sctn-test-vectors-" + suffix }!
    }

    func register(
        _ example: Example, relyingParty: RelyingParty = Self.relyingParty,
        policy: UnsupportedAttestationPolicy = .acceptAsNone, requireUserVerification: Bool = false
    ) throws(WebAuthnError) -> RegisteredCredential {
        try RegistrationVerifier(relyingParty: relyingParty, unsupportedAttestation: policy).verify(
            attestationObject: example.bytes(\.registration, "attestationObject"),
            clientDataJSON: example.bytes(\.registration, "clientDataJSON"), transports: ["usb"],
            expectedChallenge: example.bytes(\.registration, "challenge"), requireUserVerification: requireUserVerification)
    }

    func authenticate(
        _ example: Example, with credential: RegisteredCredential, relyingParty: RelyingParty = Self.relyingParty,
        signature: [UInt8]? = nil
    ) throws(WebAuthnError) -> VerifiedAssertion {
        try AssertionVerifier(relyingParty: relyingParty).verify(
            credentialId: credential.id, authenticatorData: example.bytes(\.authentication, "authenticatorData"),
            clientDataJSON: example.bytes(\.authentication, "clientDataJSON"),
            signature: signature ?? example.bytes(\.authentication, "signature"), userHandle: nil,
            credential: StoredCredential(
                id: credential.id, publicKey: credential.publicKey, signCount: credential.signCount,
                isBackupEligible: credential.isBackupEligible),
            expectedChallenge: example.bytes(\.authentication, "challenge"), requireUserVerification: false)
    }

    @Test func noneES256() throws {
        let example = Self.example("none-es256")
        let credential = try register(example)
        #expect(credential.id == example.bytes(\.registration, "credentialId"))
        #expect(credential.attestationFormat == "none")
        #expect(credential.attestation == .none)
        #expect(credential.algorithm == .es256)
        #expect(credential.aaguid == [UInt8](hex: "8446ccb9ab1db374750b2367ff6f3a1f"))
        #expect(credential.signCount == 0)
        #expect(credential.transports == ["usb"])
        #expect(credential.isBackupEligible && credential.isBackedUp && !credential.isUserVerified)
        let assertion = try authenticate(example, with: credential)
        #expect(assertion.signCount == 0)
        #expect(assertion.credentialId == credential.id)
        #expect(assertion.isBackedUp && !assertion.isUserVerified)
    }

    @Test func userVerificationRequiredButNotDone() {
        // This example's authenticator data has UP, BE, BS and AT, not UV.
        #expect(throws: WebAuthnError.userVerificationMissing) {
            try register(Self.example("none-es256"), requireUserVerification: true)
        }
    }

    @Test func packedSelfAttestation() throws {
        let example = Self.example("packed-self-es256")
        let credential = try register(example)
        #expect(credential.attestationFormat == "packed")
        #expect(credential.attestation == .selfAttestation)
        #expect(try authenticate(example, with: credential).signCount == 0)
    }

    @Test func packedAttestationWithCertificate() throws {
        let example = Self.example("packed-es256")
        let credential = try register(example)
        guard case .certificateNotAnchored(let chain) = credential.attestation else {
            Issue.record("expected an unanchored certificate chain, got \(credential.attestation)")
            return
        }
        #expect(!chain.isEmpty)
        #expect(chain.allSatisfy { $0 != [UInt8](hex: Self.document.attestationCACertificate) })
        #expect(try authenticate(example, with: credential).signCount == 0)
    }

    @Test func packedAttestationOfAnRS256Credential() throws {
        let example = Self.example("packed-rs256")
        let credential = try register(example)
        #expect(credential.algorithm == .rs256)
        if case .certificateNotAnchored = credential.attestation {} else { Issue.record("\(credential.attestation)") }
        _ = try authenticate(example, with: credential)
    }

    @Test func credentialIdOf1023Bytes() throws {
        let example = Self.example("none-es256-long-credential-id")
        let credential = try register(example)
        #expect(credential.id.count == 1023)
        #expect(credential.id == example.bytes(\.registration, "credentialId"))
        _ = try authenticate(example, with: credential)
    }

    @Test func crossOriginOnlyWhenAllowed() throws {
        let example = Self.example("none-es256-crossOrigin")
        #expect(throws: WebAuthnError.crossOriginNotAllowed) { try register(example) }
        var relyingParty = Self.relyingParty
        relyingParty.allowsCrossOrigin = true
        let credential = try register(example, relyingParty: relyingParty)
        #expect(throws: WebAuthnError.crossOriginNotAllowed) { try authenticate(example, with: credential) }
        _ = try authenticate(example, with: credential, relyingParty: relyingParty)
    }

    @Test func topOriginOnlyWhenListed() throws {
        let example = Self.example("none-es256-topOrigin")
        var relyingParty = Self.relyingParty
        #expect(throws: WebAuthnError.crossOriginNotAllowed) { try register(example, relyingParty: relyingParty) }
        relyingParty.allowsCrossOrigin = true
        #expect(throws: WebAuthnError.topOriginNotAllowed(Self.document.topOrigin)) {
            try register(example, relyingParty: relyingParty)
        }
        relyingParty.topOrigins = [Self.document.topOrigin]
        let credential = try register(example, relyingParty: relyingParty)
        _ = try authenticate(example, with: credential, relyingParty: relyingParty)
    }

    @Test(arguments: [("packed-es384", -35), ("packed-es512", -36), ("packed-eddsa", -8), ("packed-ed448", -53)])
    func credentialAlgorithmsThisLibraryDoesNotVerify(example: String, alg: Int) {
        #expect(throws: WebAuthnError.unsupportedAlgorithm(alg)) { try register(Self.example(example)) }
    }

    @Test(arguments: ["tpm-es256", "android-key-es256", "apple-es256", "fido-u2f-es256"])
    func otherFormatsAreAcceptedAsNoneOrRefused(example id: String) throws {
        let example = Self.example(id)
        let format = String(id.dropLast("-es256".count))
        let credential = try register(example)
        #expect(credential.attestationFormat == format)
        #expect(credential.attestation == .unverified)
        _ = try authenticate(example, with: credential)
        #expect(throws: WebAuthnError.unsupportedAttestationFormat(format)) { try register(example, policy: .reject) }
    }

    @Test(arguments: [
        "none-es256", "packed-self-es256", "none-es256-long-credential-id", "packed-es256", "packed-rs256", "tpm-es256",
    ])
    func tamperedAssertionsAreRefused(example id: String) throws {
        let example = Self.example(id)
        let credential = try register(example)
        let signature = example.bytes(\.authentication, "signature")
        #expect(throws: WebAuthnError.invalidSignature) {
            try authenticate(example, with: credential, signature: signature.flipping(at: -1))
        }
        #expect(throws: WebAuthnError.invalidSignature) {
            try authenticate(example, with: credential, signature: signature.flipping(at: signature.count / 2))
        }
    }

    @Test func anotherRelyingPartyIsRefused() {
        let elsewhere = RelyingParty(id: "example.com", origins: [Self.document.origin])
        #expect(throws: WebAuthnError.relyingPartyMismatch) { try register(Self.example("none-es256"), relyingParty: elsewhere) }
    }

    @Test func theRegistrationChallengeDoesNotAnswerTheAssertion() throws {
        let example = Self.example("none-es256")
        let credential = try register(example)
        #expect(throws: WebAuthnError.challengeMismatch) {
            try AssertionVerifier(relyingParty: Self.relyingParty).verify(
                credentialId: credential.id, authenticatorData: example.bytes(\.authentication, "authenticatorData"),
                clientDataJSON: example.bytes(\.authentication, "clientDataJSON"),
                signature: example.bytes(\.authentication, "signature"), userHandle: nil,
                credential: StoredCredential(id: credential.id, publicKey: credential.publicKey, signCount: 0),
                expectedChallenge: example.bytes(\.registration, "challenge"), requireUserVerification: false)
        }
    }
}
