import Foundation
import Testing

@testable import CognateSAML

/// Responses made by pysaml2 (Fixtures/, written by compat/saml_idp.py's identity provider with
/// a long-lived certificate), verified as of a moment inside their validity.
struct SAMLResponseVerifierTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    static let issued = SAMLInstant.parse("2026-11-27T21:37:04Z")!

    static func expectations(now: Date = issued.addingTimeInterval(10), inResponseTo: String? = "_request1",
                             key: String? = nil, requireEncryption: Bool = false) throws -> ResponseExpectations {
        ResponseExpectations(
            identityProvider: try IdentityProviderMetadata.parse(try fixture("metadata.xml"), now: issued),
            entityID: "urn:amazon:cognito:sp:us-east-1_Fixture", assertionConsumer: "https://auth.example.com/saml2/idpresponse",
            inResponseTo: inResponseTo, decryptionKey: key, requireEncryption: requireEncryption, now: now)
    }

    static func verify(_ document: String, _ expected: ResponseExpectations) throws -> VerifiedAssertion {
        try SAMLResponseVerifier.verify(base64: Data(document.utf8).base64EncodedString(), expecting: expected)
    }

    @Test func metadataNamesTheProviderItsEndpointsAndCertificate() throws {
        let metadata = try IdentityProviderMetadata.parse(try Self.fixture("metadata.xml"), now: Self.issued)
        #expect(metadata.entityID == "https://idp.example.com/metadata")
        #expect(metadata.singleSignOnRedirect == "https://idp.example.com/sso")
        #expect(metadata.singleLogoutRedirect == "https://idp.example.com/slo")
        #expect(metadata.signingCertificates.count == 1)
        #expect(throws: SAMLError.self) { try IdentityProviderMetadata.parse("<x/>", now: Self.issued) }
        #expect(throws: SAMLError.self) {
            try IdentityProviderMetadata.parse(try Self.fixture("metadata.xml"), now: Self.issued.addingTimeInterval(200 * 365 * 86400))
        }
    }

    @Test func aSignedAssertionIsReadAfterItsSignatureChecks() throws {
        let assertion = try Self.verify(try Self.fixture("response-signed.xml"), try Self.expectations())
        #expect(assertion.nameID == "ann")
        #expect(assertion.issuer == "https://idp.example.com/metadata")
        #expect(assertion.inResponseTo == "_request1")
        #expect(assertion.sessionIndex != nil)
        #expect(assertion.attributes["http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"] == ["ann@example.com"])
        #expect(assertion.attributes["http://example.com/groups"] == ["a", "b c"])
    }

    @Test func aChangedByteBreaksTheSignature() throws {
        let tampered = try Self.fixture("response-signed.xml").replacingOccurrences(of: "ann@example.com", with: "eve@example.com")
        let error = #expect(throws: SAMLError.self) { try Self.verify(tampered, try Self.expectations()) }
        #expect(error?.reason.contains("does not verify") == true)
    }

    @Test func timeRequestAndEncryptionAreChecked() throws {
        let document = try Self.fixture("response-signed.xml")
        #expect(throws: SAMLError.self) { try Self.verify(document, try Self.expectations(now: Self.issued.addingTimeInterval(3600))) }
        #expect(throws: SAMLError.self) { try Self.verify(document, try Self.expectations(inResponseTo: "_another")) }
        #expect(throws: SAMLError.self) { try Self.verify(document, try Self.expectations(inResponseTo: nil)) }
        #expect(throws: SAMLError.self) { try Self.verify(document, try Self.expectations(requireEncryption: true)) }
    }

    @Test func anEncryptedAssertionIsDecryptedWithTheProvidersKeyOnly() throws {
        let document = try Self.fixture("response-encrypted.xml")
        #expect(document.contains("EncryptedAssertion"))
        let key = try Self.fixture("test-only-sp-key.pem")
        let assertion = try Self.verify(document, try Self.expectations(key: key, requireEncryption: true))
        #expect(assertion.nameID == "ann")
        #expect(throws: SAMLError.self) { try Self.verify(document, try Self.expectations()) }
        let other = try Self.fixture("test-only-sp-key.pem").replacingOccurrences(of: "A", with: "B")
        #expect(throws: SAMLError.self) { try Self.verify(document, try Self.expectations(key: other)) }
    }

    @Test func documentTypeDeclarationsAndGarbageAreRefused() throws {
        let document = try Self.fixture("response-signed.xml")
        let body = document.hasPrefix("<?xml") ? String(document[document.range(of: "?>")!.upperBound...]) : document
        let withEntity = "<!DOCTYPE r [<!ENTITY x \"ann\">]>" + body
        #expect(throws: SAMLError.self) { try Self.verify(withEntity, try Self.expectations()) }
        #expect(throws: SAMLError.self) { try Self.verify("not xml", try Self.expectations()) }
        #expect(throws: SAMLError.self) { try SAMLResponseVerifier.verify(base64: "%%%", expecting: try Self.expectations()) }
    }
}

struct RedirectBindingTests {
    @Test func messagesRoundTripThroughDeflateAndBase64() throws {
        let message = ServiceProviderMessages.authnRequest(
            id: "_1", entityID: "urn:amazon:cognito:sp:p", destination: "https://idp.example.com/sso",
            assertionConsumer: "https://auth.example.com/saml2/idpresponse", now: Date(timeIntervalSince1970: 0))
        let url = try RedirectBinding.url(
            destination: "https://idp.example.com/sso", parameter: "SAMLRequest", message: message, relayState: "r s", signer: nil)
        let query = URLComponents(string: url)!.queryItems!
        #expect(query.map(\.name) == ["SAMLRequest", "RelayState"])
        #expect(query[1].value == "r s")
        let inflated = RedirectBinding.message(query[0].value!)
        #expect(inflated.map { String(decoding: $0, as: UTF8.self) } == message)
        #expect(RedirectBinding.message(query[0].value!, limit: 10) == nil)
    }

    @Test func aSignedQueryEndsWithSigAlgAndSignatureOverWhatPrecedesThem() throws {
        let url = try RedirectBinding.url(
            destination: "https://idp.example.com/slo?x=1", parameter: "SAMLRequest", message: "<a/>", relayState: nil,
            signer: RequestSigner(algorithm: RequestSigner.rsaSHA256) { Data($0.reversed()) })
        let query = String(url.split(separator: "?", maxSplits: 1)[1])
        #expect(query.hasPrefix("x=1&SAMLRequest="))
        let signed = String(query.dropFirst("x=1&".count).prefix { $0 != "&" }) + "&SigAlg="
            + "http%3A%2F%2Fwww.w3.org%2F2001%2F04%2Fxmldsig-more%23rsa-sha256"
        let signature = URLComponents(string: url)!.queryItems!.first { $0.name == "Signature" }!.value!
        #expect(Data(base64Encoded: signature) == Data(Data(signed.utf8).reversed()))
    }
}
