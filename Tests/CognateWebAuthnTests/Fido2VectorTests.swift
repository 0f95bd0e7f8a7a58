import Testing

@testable import CognateWebAuthn

/// Registrations and assertions written by python-fido2's structures (Vectors/generate_fido2_vectors.py).
struct Fido2VectorTests {
    struct Document: Decodable {
        var rpId, origin: String
        var cases: [Case]
    }

    struct Case: Decodable {
        struct Registration: Decodable {
            var challenge, clientDataJSON, attestationObject: String
            var transports: [String]
        }
        struct Credential: Decodable {
            var id, publicKey, aaguid, userHandle, format: String
            var signCount: UInt32
            var flags: UInt8
            var x5c: [String]
        }
        struct Assertion: Decodable {
            var challenge, clientDataJSON, authenticatorData, signature, userHandle: String
            var signCount: UInt32
            var flags: UInt8
        }
        var name, algorithm, attestation, pythonFido2: String
        var registration: Registration
        var credential: Credential
        var assertion: Assertion
    }

    static let document = try! TestSupport.load(Document.self, from: "fido2-vectors.json")
    static let relyingParty = RelyingParty(id: document.rpId, origins: [document.origin])

    static func vector(_ name: String) -> Case { document.cases.first { $0.name == name }! }

    static var accepted: [String] { document.cases.filter { $0.pythonFido2 == "accepts" }.map(\.name) }

    func register(
        _ vector: Case, relyingParty: RelyingParty = Self.relyingParty, verifier: RegistrationVerifier? = nil,
        attestationObject: [UInt8]? = nil, challenge: [UInt8]? = nil, requireUserVerification: Bool = false
    ) throws(WebAuthnError) -> RegisteredCredential {
        try (verifier ?? RegistrationVerifier(relyingParty: relyingParty)).verify(
            attestationObject: attestationObject ?? [UInt8](hex: vector.registration.attestationObject),
            clientDataJSON: [UInt8](hex: vector.registration.clientDataJSON), transports: vector.registration.transports,
            expectedChallenge: challenge ?? [UInt8](hex: vector.registration.challenge),
            requireUserVerification: requireUserVerification)
    }

    static func stored(_ vector: Case, signCount: UInt32? = nil, isBackupEligible: Bool? = nil) -> StoredCredential {
        StoredCredential(
            id: [UInt8](hex: vector.credential.id), publicKey: [UInt8](hex: vector.credential.publicKey),
            signCount: signCount ?? vector.credential.signCount, userHandle: [UInt8](hex: vector.credential.userHandle),
            isBackupEligible: isBackupEligible ?? (vector.credential.flags & 0x08 != 0))
    }

    func authenticate(
        _ vector: Case, relyingParty: RelyingParty = Self.relyingParty, credential: StoredCredential? = nil,
        credentialId: [UInt8]? = nil, authenticatorData: [UInt8]? = nil, signature: [UInt8]? = nil,
        userHandle: [UInt8]?? = nil, challenge: [UInt8]? = nil, requireUserVerification: Bool = false
    ) throws(WebAuthnError) -> VerifiedAssertion {
        try AssertionVerifier(relyingParty: relyingParty).verify(
            credentialId: credentialId ?? [UInt8](hex: vector.credential.id),
            authenticatorData: authenticatorData ?? [UInt8](hex: vector.assertion.authenticatorData),
            clientDataJSON: [UInt8](hex: vector.assertion.clientDataJSON),
            signature: signature ?? [UInt8](hex: vector.assertion.signature),
            userHandle: userHandle ?? [UInt8](hex: vector.assertion.userHandle), credential: credential ?? Self.stored(vector),
            expectedChallenge: challenge ?? [UInt8](hex: vector.assertion.challenge),
            requireUserVerification: requireUserVerification)
    }

    /// The attestation object of `vector` with its statement's `key` set to `value` (removed when nil).
    static func attestationObject(_ vector: Case, statement key: String, _ value: CBORValue?) throws -> [UInt8] {
        let object = try #require(try CBORDecoder().decode([UInt8](hex: vector.registration.attestationObject)).mapValue)
        let statement = try #require(object["attStmt"]?.mapValue)
        let changed = CBORTestEncoder.replacing(.text(key), with: value, in: statement)
        return CBORTestEncoder.encode(
            CBORTestEncoder.map([
                (.text("fmt"), object["fmt"]!), (.text("attStmt"), changed), (.text("authData"), object["authData"]!),
            ]))
    }

    @Test(arguments: Fido2VectorTests.accepted)
    func registersAndAuthenticates(name: String) throws {
        let vector = Self.vector(name)
        let credential = try register(vector)
        #expect(credential.id == [UInt8](hex: vector.credential.id))
        #expect(credential.publicKey == [UInt8](hex: vector.credential.publicKey))
        #expect(credential.algorithm.rawValue == (vector.algorithm == "ES256" ? -7 : -257))
        #expect(credential.aaguid == [UInt8](hex: vector.credential.aaguid))
        #expect(credential.signCount == vector.credential.signCount)
        #expect(credential.flags.rawValue == vector.credential.flags)
        #expect(credential.transports == vector.registration.transports)
        #expect(credential.attestationFormat == vector.credential.format)
        switch vector.attestation {
        case "none": #expect(credential.attestation == .none)
        case "packed-self": #expect(credential.attestation == .selfAttestation)
        default: #expect(credential.attestation == .certificateNotAnchored(chain: vector.credential.x5c.map { [UInt8](hex: $0) }))
        }

        let stored = StoredCredential(
            id: credential.id, publicKey: credential.publicKey, signCount: credential.signCount,
            userHandle: [UInt8](hex: vector.credential.userHandle), isBackupEligible: credential.isBackupEligible)
        let assertion = try authenticate(vector, credential: stored)
        #expect(assertion.signCount == vector.assertion.signCount)
        #expect(assertion.flags.rawValue == vector.assertion.flags)
    }

    @Test func authenticatorExtensionsArePassedOn() throws {
        let credential = try register(Self.vector("es256-none-extensions"))
        #expect(credential.authenticatorExtensions?["credProtect"] == .unsigned(2))
    }

    @Test func wrongChallengeIsRefused() {
        let vector = Self.vector("es256-none")
        let other = [UInt8](hex: vector.assertion.challenge)
        #expect(throws: WebAuthnError.challengeMismatch) { try register(vector, challenge: other) }
        #expect(throws: WebAuthnError.challengeMismatch) {
            try authenticate(vector, challenge: [UInt8](hex: vector.registration.challenge))
        }
    }

    @Test func wrongOriginIsRefused() {
        let vector = Self.vector("es256-none")
        let relyingParty = RelyingParty(id: Self.document.rpId, origins: ["https://app.cognate.test"])
        #expect(throws: WebAuthnError.originNotAllowed(Self.document.origin)) { try register(vector, relyingParty: relyingParty) }
        #expect(throws: WebAuthnError.originNotAllowed(Self.document.origin)) {
            try authenticate(vector, relyingParty: relyingParty)
        }
    }

    @Test func wrongRelyingPartyIdIsRefused() {
        let vector = Self.vector("rs256-none")
        let relyingParty = RelyingParty(id: "app.cognate.test", origins: [Self.document.origin])
        #expect(throws: WebAuthnError.relyingPartyMismatch) { try register(vector, relyingParty: relyingParty) }
        #expect(throws: WebAuthnError.relyingPartyMismatch) { try authenticate(vector, relyingParty: relyingParty) }
    }

    @Test(arguments: ["es256-none", "rs256-none"])
    func tamperedSignatureOrDataIsRefused(name: String) {
        let vector = Self.vector(name)
        let signature = [UInt8](hex: vector.assertion.signature)
        let authenticatorData = [UInt8](hex: vector.assertion.authenticatorData)
        #expect(throws: WebAuthnError.invalidSignature) { try authenticate(vector, signature: signature.flipping(at: 40)) }
        #expect(throws: WebAuthnError.invalidSignature) { try authenticate(vector, signature: Array(signature.dropLast())) }
        // The counter raised by the attacker: the signature no longer covers it.
        #expect(throws: WebAuthnError.invalidSignature) {
            try authenticate(vector, authenticatorData: authenticatorData.flipping(at: 35))
        }
        // Signed by another credential's key.
        let other = Self.vector(name == "es256-none" ? "es256-packed-self" : "rs256-packed-self")
        #expect(throws: WebAuthnError.invalidSignature) {
            try authenticate(vector, signature: [UInt8](hex: other.assertion.signature))
        }
    }

    @Test func userPresenceIsRequired() {
        let vector = Self.vector("rs256-none")
        let authenticatorData = [UInt8](hex: vector.assertion.authenticatorData).flipping(at: 32, mask: 0x01)
        #expect(throws: WebAuthnError.userPresenceMissing) { try authenticate(vector, authenticatorData: authenticatorData) }
    }

    @Test func userVerificationRequiredButMissingIsRefused() throws {
        let vector = Self.vector("rs256-none")  // UP only
        #expect(throws: WebAuthnError.userVerificationMissing) { try register(vector, requireUserVerification: true) }
        #expect(throws: WebAuthnError.userVerificationMissing) { try authenticate(vector, requireUserVerification: true) }
        let verified = Self.vector("es256-none")
        #expect(try register(verified, requireUserVerification: true).isUserVerified)
        #expect(try authenticate(verified, requireUserVerification: true).isUserVerified)
    }

    @Test func counterThatDoesNotIncreaseMeansACloneMayExist() throws {
        let vector = Self.vector("rs256-none")  // the assertion's counter is 6
        #expect(throws: WebAuthnError.clonedAuthenticator(storedSignCount: 6, receivedSignCount: 6)) {
            try authenticate(vector, credential: Self.stored(vector, signCount: 6))
        }
        #expect(throws: WebAuthnError.clonedAuthenticator(storedSignCount: 9, receivedSignCount: 6)) {
            try authenticate(vector, credential: Self.stored(vector, signCount: 9))
        }
        #expect(try authenticate(vector, credential: Self.stored(vector, signCount: 0)).signCount == 6)
        // An authenticator without a counter reports zero: fine while the stored counter is zero too,
        // a regression once a counter was seen.
        let counterless = Self.vector("es256-none")
        #expect(try authenticate(counterless, credential: Self.stored(counterless, signCount: 0)).signCount == 0)
        #expect(throws: WebAuthnError.clonedAuthenticator(storedSignCount: 5, receivedSignCount: 0)) {
            try authenticate(counterless, credential: Self.stored(counterless, signCount: 5))
        }
    }

    @Test func algorithmsTheRelyingPartyDidNotOfferAreRefused() {
        let verifier = RegistrationVerifier(relyingParty: Self.relyingParty, allowedAlgorithms: [.es256])
        #expect(throws: WebAuthnError.unsupportedAlgorithm(-257)) { try register(Self.vector("rs256-none"), verifier: verifier) }
    }

    @Test func trailingBytesAfterTheAttestationObjectAreRefused() {
        let vector = Self.vector("es256-packed-self")
        let bytes = [UInt8](hex: vector.registration.attestationObject)
        #expect(throws: WebAuthnError.malformedCBOR(.attestationObject, .trailingBytes(offset: bytes.count))) {
            try register(vector, attestationObject: bytes + [0x00])
        }
    }

    @Test func x5cLeavesBreakingTheRequirementsAreRefused() {
        let cases = [
            ("es256-packed-x5c-no-ou", #"the certificate's subject has no OU "Authenticator Attestation""#),
            ("es256-packed-x5c-ca", "the certificate is a CA (Basic Constraints CA true)"),
            ("es256-packed-x5c-aaguid-mismatch", "the certificate's AAGUID is not the authenticator data's"),
        ]
        for (name, reason) in cases {
            #expect(throws: WebAuthnError.invalidAttestation(reason)) { try register(Self.vector(name)) }
        }
    }

    @Test func packedStatementsThatDoNotVerifyAreRefused() throws {
        let selfAttested = Self.vector("es256-packed-self")
        let statement = try #require(
            try CBORDecoder().decode([UInt8](hex: selfAttested.registration.attestationObject)).mapValue?["attStmt"]?.mapValue)
        let signature = try #require(statement["sig"]?.bytesValue)
        #expect(throws: WebAuthnError.invalidAttestation("packed self attestation: the signature does not verify")) {
            try register(
                selfAttested,
                attestationObject: Self.attestationObject(selfAttested, statement: "sig", .bytes(signature.flipping(at: -1))))
        }
        #expect(throws: WebAuthnError.invalidAttestation("packed self attestation: alg -257 is not the credential key's")) {
            try register(selfAttested, attestationObject: Self.attestationObject(selfAttested, statement: "alg", .int(-257)))
        }
        #expect(throws: WebAuthnError.invalidAttestation("packed: no bytes sig")) {
            try register(selfAttested, attestationObject: Self.attestationObject(selfAttested, statement: "sig", nil))
        }

        let certified = Self.vector("es256-packed-x5c")
        #expect(throws: WebAuthnError.invalidAttestation("packed: the signature does not verify with the certificate's key")) {
            try register(certified, attestationObject: Self.attestationObject(certified, statement: "sig", .bytes(signature)))
        }
        #expect(
            throws: WebAuthnError.invalidAttestation(
                "packed: alg RS256 but the certificate's key is not RSA of 2048 bits or more")
        ) {
            try register(certified, attestationObject: Self.attestationObject(certified, statement: "alg", .int(-257)))
        }
        #expect(throws: WebAuthnError.malformed(.attestationCertificate, "not a DER X.509 certificate")) {
            try register(
                certified, attestationObject: Self.attestationObject(certified, statement: "x5c", .array([.bytes([0x30, 0x00])])))
        }
        #expect(throws: WebAuthnError.invalidAttestation("packed: x5c is not a non-empty array")) {
            try register(certified, attestationObject: Self.attestationObject(certified, statement: "x5c", .array([])))
        }
    }

    @Test func packedInAnAlgorithmThisLibraryDoesNotVerifyFollowsThePolicy() throws {
        let certified = Self.vector("es256-packed-x5c")
        let es384 = try Self.attestationObject(certified, statement: "alg", .int(-35))
        #expect(try register(certified, attestationObject: es384).attestation == .unverified)
        let strict = RegistrationVerifier(relyingParty: Self.relyingParty, unsupportedAttestation: .reject)
        #expect(throws: WebAuthnError.unsupportedAttestationFormat("packed with alg -35")) {
            try register(certified, verifier: strict, attestationObject: es384)
        }
    }

    @Test func noneWithAStatementIsRefused() throws {
        let vector = Self.vector("es256-none")
        #expect(throws: WebAuthnError.invalidAttestation("none: the statement is not empty")) {
            try register(vector, attestationObject: Self.attestationObject(vector, statement: "sig", .bytes([1])))
        }
    }

    @Test func assertionsMustComeFromTheStoredCredentialAndUser() throws {
        let vector = Self.vector("es256-packed-x5c")
        let otherId = [UInt8](hex: vector.credential.id).flipping(at: 0)
        #expect(throws: WebAuthnError.credentialMismatch) { try authenticate(vector, credentialId: otherId) }
        let otherUser = [UInt8](hex: vector.assertion.userHandle).flipping(at: 0)
        #expect(throws: WebAuthnError.userHandleMismatch) { try authenticate(vector, userHandle: otherUser) }
        #expect(try authenticate(vector, userHandle: .some(nil)).signCount == vector.assertion.signCount)
        #expect(try authenticate(vector, userHandle: []).signCount == vector.assertion.signCount)
    }

    @Test func backupEligibilityMustNotChange() {
        let vector = Self.vector("es256-none")  // BE set
        #expect(throws: WebAuthnError.backupEligibilityChanged(registered: false, received: true)) {
            try authenticate(vector, credential: Self.stored(vector, isBackupEligible: false))
        }
    }
}
