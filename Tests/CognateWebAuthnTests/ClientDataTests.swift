import Testing

@testable import CognateWebAuthn

struct ClientDataTests {
    static let challenge: [UInt8] = Array(0..<32)
    static let relyingParty = RelyingParty(id: "cognate.test", origins: ["https://cognate.test", "https://www.cognate.test"])

    static func json(
        type: String = "webauthn.get", challenge: String = WebAuthnBase64URL.encode(ClientDataTests.challenge),
        origin: String = "https://cognate.test", extra: String = ""
    ) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)"\#(extra)}"#.utf8)
    }

    func verify(_ json: [UInt8], relyingParty: RelyingParty = Self.relyingParty) throws(WebAuthnError) -> CollectedClientData {
        try relyingParty.verifyClientData(json, type: "webauthn.get", challenge: Self.challenge)
    }

    @Test func acceptsTheExpectedCeremony() throws {
        let clientData = try verify(Self.json(extra: #","crossOrigin":false,"other":{"x":[1,2]}"#))
        #expect(clientData.origin == "https://cognate.test")
        #expect(clientData.challenge == Self.challenge)
        #expect(!clientData.crossOrigin)
        #expect(clientData.topOrigin == nil)
        #expect(try verify(Self.json(origin: "https://www.cognate.test")).origin == "https://www.cognate.test")
    }

    @Test func refusesAnotherCeremonyType() {
        #expect(throws: WebAuthnError.unexpectedType(expected: "webauthn.get", received: "webauthn.create")) {
            try verify(Self.json(type: "webauthn.create"))
        }
        #expect(throws: WebAuthnError.unexpectedType(expected: "webauthn.get", received: "payment.get")) {
            try verify(Self.json(type: "payment.get"))
        }
    }

    @Test func refusesAnotherChallenge() {
        let other = WebAuthnBase64URL.encode(Array(Self.challenge.dropLast()) + [0xff])
        #expect(throws: WebAuthnError.challengeMismatch) { try verify(Self.json(challenge: other)) }
        #expect(throws: WebAuthnError.challengeMismatch) {
            try verify(Self.json(challenge: WebAuthnBase64URL.encode(Self.challenge.dropLast())))
        }
        #expect(throws: WebAuthnError.challengeMismatch) { try verify(Self.json(challenge: "")) }
    }

    @Test func refusesAChallengeNotInStrictBase64URL() {
        let padded = WebAuthnBase64URL.encode(Self.challenge) + "="
        #expect(throws: WebAuthnError.malformed(.clientDataJSON, "challenge is not unpadded base64url")) {
            try verify(Self.json(challenge: padded))
        }
    }

    @Test func originsMatchExactly() {
        for origin in [
            "https://evil.test", "http://cognate.test", "https://cognate.test/", "https://cognate.test:443",
            "https://COGNATE.test",
        ] {
            #expect(throws: WebAuthnError.originNotAllowed(origin)) { try verify(Self.json(origin: origin)) }
        }
    }

    @Test func crossOriginIsRefusedUnlessAllowed() throws {
        let json = Self.json(extra: #","crossOrigin":true"#)
        #expect(throws: WebAuthnError.crossOriginNotAllowed) { try verify(json) }
        var relyingParty = Self.relyingParty
        relyingParty.allowsCrossOrigin = true
        #expect(try verify(json, relyingParty: relyingParty).crossOrigin)
    }

    @Test func topOriginIsRefusedUnlessListed() throws {
        let json = Self.json(extra: #","crossOrigin":true,"topOrigin":"https://shop.test""#)
        var relyingParty = Self.relyingParty
        relyingParty.allowsCrossOrigin = true
        #expect(throws: WebAuthnError.topOriginNotAllowed("https://shop.test")) { try verify(json, relyingParty: relyingParty) }
        relyingParty.topOrigins = ["https://shop.test"]
        #expect(try verify(json, relyingParty: relyingParty).topOrigin == "https://shop.test")
    }

    @Test func malformedJSONIsRefused() {
        let refusal = WebAuthnError.malformed(.clientDataJSON, "not a JSON object with string type, challenge and origin")
        #expect(throws: refusal) { try verify(Array("not json".utf8)) }
        #expect(throws: refusal) { try verify(Array(#"{"type":"webauthn.get","origin":"https://cognate.test"}"#.utf8)) }
        #expect(throws: refusal) { try verify(Self.json(extra: #","crossOrigin":"true""#)) }
        #expect(throws: refusal) { try verify(Array("[]".utf8)) }
        #expect(throws: refusal) { try verify([]) }
        #expect(throws: WebAuthnError.malformed(.clientDataJSON, "not UTF-8")) { try verify(Self.json() + [0xff]) }
    }
}
