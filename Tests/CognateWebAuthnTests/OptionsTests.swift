import Foundation
import Testing

@testable import CognateWebAuthn

struct OptionsTests {
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func creationOptionsInTheLevel3JSONShape() throws {
        let options = PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(id: "cognate.test", name: "Cognate"),
            user: PublicKeyCredentialUserEntity(handle: [1, 2, 3, 4], name: "alice", displayName: "Alice"),
            challenge: [0xfb, 0xff, 0x00], timeout: 60_000,
            excludeCredentials: [PublicKeyCredentialDescriptor(credentialId: [9, 9], transports: ["usb", "nfc"])])
        #expect(
            try Self.json(options)
                == #"{"attestation":"none","authenticatorSelection":{"requireResidentKey":true,"residentKey":"required","userVerification":"preferred"},"challenge":"-_8A","excludeCredentials":[{"id":"CQk","transports":["usb","nfc"],"type":"public-key"}],"pubKeyCredParams":[{"alg":-7,"type":"public-key"},{"alg":-257,"type":"public-key"}],"rp":{"id":"cognate.test","name":"Cognate"},"timeout":60000,"user":{"displayName":"Alice","id":"AQIDBA","name":"alice"}}"#
        )
    }

    @Test func creationOptionsVariants() throws {
        let options = PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(id: nil, name: "Cognate"),
            user: PublicKeyCredentialUserEntity(handle: [0], name: "bob", displayName: ""),
            challenge: Array(repeating: 7, count: 16),
            algorithms: [.es256], timeout: nil, residentKey: .discouraged, userVerification: .required,
            authenticatorAttachment: .crossPlatform, credProps: true)
        let json = try Self.json(options)
        #expect(
            json.contains(
                #""authenticatorSelection":{"authenticatorAttachment":"cross-platform","requireResidentKey":false,"residentKey":"discouraged","userVerification":"required"}"#
            ))
        #expect(json.contains(#""pubKeyCredParams":[{"alg":-7,"type":"public-key"}]"#))
        #expect(json.contains(#""extensions":{"credProps":true}"#))
        #expect(json.contains(#""excludeCredentials":[]"#))
        #expect(json.contains(#""rp":{"name":"Cognate"}"#))
        #expect(!json.contains("timeout"))
        let decoded = try JSONDecoder().decode(PublicKeyCredentialCreationOptionsJSON.self, from: Data(json.utf8))
        #expect(decoded == options)

        let bare = PublicKeyCredentialCreationOptionsJSON(
            rp: options.rp, user: options.user, challenge: [1], residentKey: nil, userVerification: nil)
        #expect(bare.authenticatorSelection == nil)
    }

    @Test func requestOptionsInTheLevel3JSONShape() throws {
        let options = PublicKeyCredentialRequestOptionsJSON(
            challenge: Array("challenge".utf8), rpId: "cognate.test",
            allowCredentials: [PublicKeyCredentialDescriptor(credentialId: [0xff])], userVerification: .required,
            timeout: 120_000)
        #expect(
            try Self.json(options)
                == #"{"allowCredentials":[{"id":"_w","type":"public-key"}],"challenge":"Y2hhbGxlbmdl","rpId":"cognate.test","timeout":120000,"userVerification":"required"}"#
        )
        let discoverable = PublicKeyCredentialRequestOptionsJSON(challenge: [1, 2], rpId: nil, timeout: nil)
        #expect(try Self.json(discoverable) == #"{"allowCredentials":[],"challenge":"AQI","userVerification":"preferred"}"#)
    }

    @Test func offeredAlgorithmsAreTheVerifiedOnes() {
        let options = PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(id: "cognate.test", name: "Cognate"),
            user: PublicKeyCredentialUserEntity(handle: [1], name: "a", displayName: "a"), challenge: [1])
        #expect(options.pubKeyCredParams.map(\.alg) == COSEAlgorithm.allCases.map(\.rawValue))
    }

    @Test func randomChallengesAreLongAndDistinct() {
        let first = WebAuthnChallenge.random()
        #expect(first.count == 32)
        #expect(first != WebAuthnChallenge.random())
        #expect(WebAuthnChallenge.random(byteCount: 4).count == 16)
    }
}
