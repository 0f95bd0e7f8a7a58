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

    static let issued = SAMLInstant.parse("2026-11-27T21:57:20Z")!

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

    /// An EncryptedKey given beside the EncryptedData (referenced by a RetrievalMethod, as some
    /// identity providers write it) decrypts as one inside its KeyInfo.
    @Test func anEncryptedKeyBesideTheDataIsTakenToo() throws {
        let document = try Self.fixture("response-encrypted.xml")
        let key = try #require(document.range(of: #"(?s)<ns0:EncryptedKey .*?</ns0:EncryptedKey>"#, options: .regularExpression))
        // Beside the EncryptedData its prefixes mean other things: it declares its own.
        let encryptedKey = String(document[key]).replacingOccurrences(
            of: "<ns0:EncryptedKey ",
            with: "<ns0:EncryptedKey xmlns:ns0=\"http://www.w3.org/2001/04/xmlenc#\" xmlns:ns1=\"http://www.w3.org/2000/09/xmldsig#\" ")
        let retrieval = "<ns1:RetrievalMethod URI=\"#x\" Type=\"http://www.w3.org/2001/04/xmlenc#EncryptedKey\"/>"
        var moved = document.replacingCharacters(in: key, with: retrieval)
        moved = moved.replacingOccurrences(of: "</ns0:EncryptedData>", with: "</ns0:EncryptedData>" + encryptedKey)
        let assertion = try Self.verify(moved, try Self.expectations(key: try Self.fixture("test-only-sp-key.pem")))
        #expect(assertion.nameID == "ann")
    }

    /// Only the shape SAML's profile gives a signature is verified; anything else is refused
    /// before a digest is computed (inclusive canonicalization of a document with many
    /// namespaces costs seconds). Documents declaring more than 64 namespaces are refused.
    @Test func signaturesOutsideSAMLsProfileAndNamespaceFloodsAreRefused() throws {
        let document = try Self.fixture("response-signed.xml")
        #expect(document.contains("http://www.w3.org/2001/10/xml-exc-c14n#"))
        let inclusive = document.replacingOccurrences(
            of: "Transform Algorithm=\"http://www.w3.org/2001/10/xml-exc-c14n#\"",
            with: "Transform Algorithm=\"http://www.w3.org/TR/2001/REC-xml-c14n-20010315\"")
        #expect(inclusive != document)
        let error = #expect(throws: SAMLError.self) { try Self.verify(inclusive, try Self.expectations()) }
        #expect(error?.reason.contains("does not verify") == true)

        let declarations = (0..<100).map { " xmlns:n\($0)=\"urn:n\($0)\"" }.joined()
        let flooded = document.replacingOccurrences(of: "<ns0:Response ", with: "<ns0:Response" + declarations + " ")
        let flood = #expect(throws: SAMLError.self) { try Self.verify(flooded, try Self.expectations()) }
        #expect(flood?.reason.contains("too many namespaces") == true)
    }

    /// What is read from an assertion once its signature checked (``SAMLResponseVerifier/read``):
    /// every pool shares the assertion consumer URL, so the audience must name this pool, and the
    /// bearer confirmation this consumer.
    @Test func anAssertionMustNameThisPoolAndThisConsumer() throws {
        func assertion(conditions: String, recipient: String?) -> String {
            let confirmation = recipient.map { " Recipient=\"\($0)\"" } ?? ""
            return """
                <saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a" IssueInstant="2026-11-27T21:57:20Z" Version="2.0">\
                <saml:Issuer>https://idp.example.com/metadata</saml:Issuer><saml:Subject><saml:NameID>ann</saml:NameID>\
                <saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData \
                NotOnOrAfter="2026-11-27T22:02:20Z" InResponseTo="_request1"\(confirmation)/></saml:SubjectConfirmation>\
                </saml:Subject>\(conditions)</saml:Assertion>
                """
        }
        let ours = "urn:amazon:cognito:sp:us-east-1_Fixture"
        let consumer = "https://auth.example.com/saml2/idpresponse"
        func read(_ text: String) throws -> VerifiedAssertion {
            let tree = try #require(XMLTree(Data(text.utf8)))
            return try SAMLResponseVerifier.read(try #require(tree.root), try Self.expectations())
        }
        let audience = "<saml:Conditions><saml:AudienceRestriction><saml:Audience>\(ours)</saml:Audience></saml:AudienceRestriction></saml:Conditions>"
        #expect(try read(assertion(conditions: audience, recipient: consumer)).nameID == "ann")
        let cases: [(String, String)] = [
            (assertion(conditions: "", recipient: consumer), "no Conditions"),
            (assertion(conditions: "<saml:Conditions/>", recipient: consumer), "names no audience"),
            (assertion(conditions: audience.replacingOccurrences(of: ours, with: "urn:amazon:cognito:sp:other"), recipient: consumer),
             "another audience"),
            (assertion(conditions: audience, recipient: nil), "Recipient"),
            (assertion(conditions: audience, recipient: "https://elsewhere.example.com/saml2/idpresponse"), "Recipient"),
        ]
        for (text, reason) in cases {
            let error = #expect(throws: SAMLError.self) { try read(text) }
            #expect(error?.reason.contains(reason) == true, "\(reason): \(error?.reason ?? "")")
        }
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
