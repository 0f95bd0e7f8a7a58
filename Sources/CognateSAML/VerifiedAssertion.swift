import CXMLSecurity
import Foundation

/// A SAML assertion about a user, after every check of `SAMLResponseVerifier`.
public struct VerifiedAssertion: Sendable, Equatable {
    /// The assertion's ID (to refuse it a second time until `expires`).
    public var id: String
    public var issuer: String
    public var nameID: String
    public var nameIDFormat: String?
    public var sessionIndex: String?
    /// Attribute values by attribute Name, in document order.
    public var attributes: [String: [String]]
    public var issuedAt: Date
    /// When the assertion stops being acceptable (its conditions' and subject confirmation's
    /// NotOnOrAfter, whichever comes first).
    public var expires: Date
    /// The request it answers (nil: unsolicited, IdP-initiated).
    public var inResponseTo: String?
}

/// What a response must match: who sent it, to whom, for what.
public struct ResponseExpectations: Sendable {
    public var identityProvider: IdentityProviderMetadata
    /// The service provider's entity ID (the audience).
    public var entityID: String
    /// Where the response was posted (Destination and Recipient).
    public var assertionConsumer: String
    /// The AuthnRequest's ID for an SP-initiated sign-in; nil accepts only unsolicited responses.
    public var inResponseTo: String?
    /// The RSA private key (PEM) encrypted assertions are for; nil when none is configured.
    public var decryptionKey: String?
    /// Refuse an assertion that was not encrypted.
    public var requireEncryption: Bool
    /// An unsolicited assertion must have been issued within this long before `now`.
    public var unsolicitedMaximumAge: TimeInterval
    public var clockSkew: TimeInterval
    public var now: Date

    public init(identityProvider: IdentityProviderMetadata, entityID: String, assertionConsumer: String, inResponseTo: String?,
                decryptionKey: String?, requireEncryption: Bool, unsolicitedMaximumAge: TimeInterval = 360,
                clockSkew: TimeInterval = 60, now: Date) {
        self.identityProvider = identityProvider
        self.entityID = entityID
        self.assertionConsumer = assertionConsumer
        self.inResponseTo = inResponseTo
        self.decryptionKey = decryptionKey
        self.requireEncryption = requireEncryption
        self.unsolicitedMaximumAge = unsolicitedMaximumAge
        self.clockSkew = clockSkew
        self.now = now
    }
}

/// Verifies a `samlp:Response` posted to the assertion consumer service.
///
/// The response or its one assertion must carry a valid enveloped XML signature by a certificate
/// of the IdP's metadata (xmlsec verifies it; the signature must reference exactly the element
/// it sits in, by an ID no other element has); only signed content is read. An encrypted
/// assertion is decrypted first when the response around it is signed or when the assertion
/// inside is. Then: status Success, issuer, Destination and Recipient, audience, validity window
/// (with `clockSkew`), bearer confirmation, InResponseTo (equal to the request's, or absent for an
/// unsolicited response no older than `unsolicitedMaximumAge`).
public enum SAMLResponseVerifier {
    static let success = "urn:oasis:names:tc:SAML:2.0:status:Success"

    /// The base64 `SAMLResponse` of a POST, verified. At most 100,000 characters of base64.
    public static func verify(base64 value: String, expecting expected: ResponseExpectations) throws -> VerifiedAssertion {
        guard value.count <= 100_000, let data = Data(base64Encoded: value.filter { !$0.isWhitespace }) else {
            throw SAMLError("The SAML response is not base64 of at most 100,000 characters.")
        }
        return try verify(document: data, expecting: expected)
    }

    public static func verify(document data: Data, expecting expected: ResponseExpectations) throws -> VerifiedAssertion {
        guard cognate_xmlsec_start() == 0 else { throw SAMLError("XML security is not available.") }
        guard let tree = XMLTree(data), let response = tree.root else {
            throw SAMLError("The SAML response is not an XML document.")
        }
        guard response.isElement("Response", in: SAMLNamespace.protocol_) else { throw SAMLError("The document is not a SAML Response.") }
        try tree.registerIdentifiers()
        let idp = expected.identityProvider

        let destination = response.attribute("Destination")
        if let destination, destination != expected.assertionConsumer {
            throw SAMLError("The SAML response is addressed to another service (Destination).")
        }
        if let issuer = response.child("Issuer", in: SAMLNamespace.assertion), issuer.text != idp.entityID {
            throw SAMLError("The SAML response was issued by another provider (Issuer).")
        }
        try checkInResponseTo(response.attribute("InResponseTo"), expected)
        let responseSigned = try verifySignature(of: response, idp: idp)
        if responseSigned, destination == nil {
            throw SAMLError("A signed SAML response must name its Destination.")
        }
        let status = response.child("Status", in: SAMLNamespace.protocol_)?.child("StatusCode", in: SAMLNamespace.protocol_)
        guard let code = status?.attribute("Value") else { throw SAMLError("The SAML response has no status.") }
        guard code == success else {
            let nested = status?.child("StatusCode", in: SAMLNamespace.protocol_)?.attribute("Value")
            throw SAMLError("The identity provider answered \(nested ?? code).")
        }

        let plain = response.children("Assertion", in: SAMLNamespace.assertion)
        let encrypted = response.children("EncryptedAssertion", in: SAMLNamespace.assertion)
        guard plain.count + encrypted.count == 1 else { throw SAMLError("The SAML response must hold exactly one assertion.") }
        let assertion: XMLNode
        if let container = encrypted.first {
            guard let key = expected.decryptionKey else { throw SAMLError("The assertion is encrypted and no key is configured.") }
            guard let data = container.child("EncryptedData", in: SAMLNamespace.encryption) else {
                throw SAMLError("The encrypted assertion has no EncryptedData.")
            }
            // One answer for every way decryption or what it gave can fail: different answers
            // would tell an attacker about the plaintext (a padding oracle).
            let decrypted = key.withCString { cognate_xmlsec_decrypt(data.node, $0, Int32(strlen($0))) }
            let inside = container.elements
            guard decrypted == 0, inside.count == 1, inside[0].isElement("Assertion", in: SAMLNamespace.assertion) else {
                throw SAMLError("The encrypted assertion cannot be decrypted with the provider's key.")
            }
            try tree.registerIdentifiers()
            assertion = inside[0]
        } else {
            guard !expected.requireEncryption else { throw SAMLError("The provider must encrypt its assertions (EncryptedResponses).") }
            assertion = plain[0]
        }
        let assertionSigned = try verifySignature(of: assertion, idp: idp)
        guard responseSigned || assertionSigned else { throw SAMLError("Neither the SAML response nor its assertion is signed.") }
        return try read(assertion, expected)
    }

    /// Whether `element` has a signature (a direct ds:Signature child) that verifies with one of
    /// the IdP's certificates; a signature that verifies with none is refused, as is more than one.
    static func verifySignature(of element: XMLNode, idp: IdentityProviderMetadata) throws -> Bool {
        let signatures = element.children("Signature", in: SAMLNamespace.signature)
        guard !signatures.isEmpty else { return false }
        guard signatures.count == 1 else { throw SAMLError("The \(element.localName) carries more than one signature.") }
        for certificate in idp.signingCertificates {
            let result = certificate.withCString { cognate_xmlsec_verify_enveloped(signatures[0].node, $0, Int32(strlen($0))) }
            if result == 1 { return true }
        }
        throw SAMLError("The signature of the \(element.localName) does not verify with the provider's certificates.")
    }

    static func checkInResponseTo(_ value: String?, _ expected: ResponseExpectations) throws {
        switch (value, expected.inResponseTo) {
        case (nil, _): return
        case (let answered?, let asked?) where answered == asked: return
        case (_, nil): throw SAMLError("An unsolicited SAML response must not answer a request (InResponseTo).")
        default: throw SAMLError("The SAML response answers another request.")
        }
    }

    static func read(_ assertion: XMLNode, _ expected: ResponseExpectations) throws -> VerifiedAssertion {
        let now = expected.now
        let skew = expected.clockSkew
        guard let id = assertion.attribute("ID") else { throw SAMLError("The assertion has no ID.") }
        guard let issuer = assertion.child("Issuer", in: SAMLNamespace.assertion)?.text,
            issuer == expected.identityProvider.entityID
        else { throw SAMLError("The assertion was not issued by the provider (Issuer).") }
        guard let issued = assertion.attribute("IssueInstant").flatMap(SAMLInstant.parse) else {
            throw SAMLError("The assertion has no IssueInstant.")
        }
        guard issued <= now.addingTimeInterval(skew) else { throw SAMLError("The assertion was issued in the future.") }
        guard let subject = assertion.child("Subject", in: SAMLNamespace.assertion),
            let nameID = subject.child("NameID", in: SAMLNamespace.assertion), !nameID.text.isEmpty
        else { throw SAMLError("The assertion names no user (Subject NameID).") }

        var expires = Date.distantFuture
        var inResponseTo: String?
        var confirmed = false
        for confirmation in subject.children("SubjectConfirmation", in: SAMLNamespace.assertion)
        where confirmation.attribute("Method") == "urn:oasis:names:tc:SAML:2.0:cm:bearer" {
            guard let data = confirmation.child("SubjectConfirmationData", in: SAMLNamespace.assertion),
                data.attribute("Recipient") == expected.assertionConsumer
            else { continue }
            guard let notOnOrAfter = data.attribute("NotOnOrAfter").flatMap(SAMLInstant.parse), now < notOnOrAfter.addingTimeInterval(skew)
            else { continue }
            if let notBefore = data.attribute("NotBefore").flatMap(SAMLInstant.parse), now.addingTimeInterval(skew) < notBefore { continue }
            try checkInResponseTo(data.attribute("InResponseTo"), expected)
            inResponseTo = data.attribute("InResponseTo")
            expires = min(expires, notOnOrAfter)
            confirmed = true
            break
        }
        guard confirmed else {
            throw SAMLError("The assertion has no bearer confirmation for this assertion consumer (Recipient) that is still valid.")
        }

        // Every pool's assertion consumer is the same URL: the audience is what ties an assertion
        // to this pool, so it must be there.
        guard let conditions = assertion.child("Conditions", in: SAMLNamespace.assertion) else {
            throw SAMLError("The assertion has no Conditions (audience).")
        }
        let restrictions = conditions.children("AudienceRestriction", in: SAMLNamespace.assertion)
        guard !restrictions.isEmpty else { throw SAMLError("The assertion names no audience (AudienceRestriction).") }
        if let notBefore = conditions.attribute("NotBefore").flatMap(SAMLInstant.parse), now.addingTimeInterval(skew) < notBefore {
            throw SAMLError("The assertion is not valid yet.")
        }
        if let notOnOrAfter = conditions.attribute("NotOnOrAfter").flatMap(SAMLInstant.parse) {
            guard now < notOnOrAfter.addingTimeInterval(skew) else { throw SAMLError("The assertion has expired.") }
            expires = min(expires, notOnOrAfter)
        }
        for restriction in restrictions {
            let audiences = restriction.children("Audience", in: SAMLNamespace.assertion).map(\.text)
            guard audiences.contains(expected.entityID) else {
                throw SAMLError("The assertion is for another audience, not \(expected.entityID).")
            }
        }
        if expected.inResponseTo == nil {
            guard inResponseTo == nil else { throw SAMLError("An unsolicited SAML response must not answer a request (InResponseTo).") }
            guard now.timeIntervalSince(issued) <= expected.unsolicitedMaximumAge + skew else {
                throw SAMLError("The unsolicited assertion is too old.")
            }
        } else if inResponseTo == nil {
            throw SAMLError("The assertion does not answer this sign-in's request (InResponseTo).")
        }

        var attributes: [String: [String]] = [:]
        for statement in assertion.children("AttributeStatement", in: SAMLNamespace.assertion) {
            for attribute in statement.children("Attribute", in: SAMLNamespace.assertion) {
                guard let name = attribute.attribute("Name") else { continue }
                attributes[name, default: []] += attribute.children("AttributeValue", in: SAMLNamespace.assertion).map(\.text)
            }
        }
        let sessionIndex = assertion.child("AuthnStatement", in: SAMLNamespace.assertion)?.attribute("SessionIndex")
        return VerifiedAssertion(
            id: id, issuer: issuer, nameID: nameID.text, nameIDFormat: nameID.attribute("Format"), sessionIndex: sessionIndex,
            attributes: attributes, issuedAt: issued, expires: expires == .distantFuture ? issued.addingTimeInterval(300) : expires,
            inResponseTo: inResponseTo)
    }
}
