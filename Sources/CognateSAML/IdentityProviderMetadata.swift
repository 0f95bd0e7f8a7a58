import CXMLSecurity
import Foundation

/// What a SAML identity provider's metadata (an `md:EntityDescriptor` with an
/// `md:IDPSSODescriptor`) says a service provider needs: its entity ID, where to send requests,
/// and the certificates its signatures must verify with.
public struct IdentityProviderMetadata: Sendable, Equatable {
    public var entityID: String
    /// SingleSignOnService locations by binding (HTTP-Redirect, HTTP-POST).
    public var singleSignOn: [String: String]
    /// SingleLogoutService locations by binding.
    public var singleLogout: [String: String]
    /// The signing certificates (PEM): a signature is good when one of them verifies it.
    public var signingCertificates: [String]
    public var wantsSignedRequests: Bool

    public var singleSignOnRedirect: String? { singleSignOn[SAMLBinding.redirect] }
    public var singleLogoutRedirect: String? { singleLogout[SAMLBinding.redirect] }

    /// Reads a metadata document. Refused, with the reason: not XML, a DTD, no IdP descriptor, no
    /// entity ID, no SingleSignOnService with the redirect binding (the one requests go by), no
    /// signing certificate, or a certificate that cannot be read or has expired at `now`.
    public static func parse(_ document: String, now: Date) throws -> IdentityProviderMetadata {
        guard let tree = XMLTree(Data(document.utf8)), var entity = tree.root else {
            throw SAMLError("The metadata is not an XML document.")
        }
        if entity.isElement("EntitiesDescriptor", in: SAMLNamespace.metadata) {
            let providers = entity.children("EntityDescriptor", in: SAMLNamespace.metadata)
                .filter { $0.child("IDPSSODescriptor", in: SAMLNamespace.metadata) != nil }
            guard providers.count == 1 else { throw SAMLError("The metadata must describe exactly one identity provider.") }
            entity = providers[0]
        }
        guard entity.isElement("EntityDescriptor", in: SAMLNamespace.metadata),
            let descriptor = entity.child("IDPSSODescriptor", in: SAMLNamespace.metadata)
        else { throw SAMLError("The metadata has no IDPSSODescriptor.") }
        guard let entityID = entity.attribute("entityID"), !entityID.isEmpty else {
            throw SAMLError("The metadata has no entityID.")
        }
        /// A service's locations by binding: http or https URLs only (a browser is sent there).
        func services(_ name: String) throws -> [String: String] {
            var found: [String: String] = [:]
            for service in descriptor.children(name, in: SAMLNamespace.metadata) {
                guard let binding = service.attribute("Binding"), let location = service.attribute("Location") else { continue }
                guard let url = URL(string: location), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
                else { throw SAMLError("A \(name) Location in the metadata is not an http or https URL.") }
                if found[binding] == nil { found[binding] = location }
            }
            return found
        }
        let singleSignOn = try services("SingleSignOnService")
        guard singleSignOn[SAMLBinding.redirect] != nil else {
            throw SAMLError("The metadata has no SingleSignOnService with the HTTP-Redirect binding.")
        }
        var certificates: [String] = []
        for key in descriptor.children("KeyDescriptor", in: SAMLNamespace.metadata) where key.attribute("use") ?? "signing" == "signing" {
            let values = key.child("KeyInfo", in: SAMLNamespace.signature)?.children("X509Data", in: SAMLNamespace.signature)
                .flatMap { $0.children("X509Certificate", in: SAMLNamespace.signature) } ?? []
            for value in values {
                let pem = try Self.pem(fromBase64: value.text)
                let notAfter = pem.withCString { cognate_certificate_not_after($0, Int32(strlen($0))) }
                guard notAfter >= 0 else { throw SAMLError("A signing certificate in the metadata cannot be read.") }
                guard Double(notAfter) > now.timeIntervalSince1970 else {
                    throw SAMLError("A signing certificate in the metadata has expired.")
                }
                certificates.append(pem)
            }
        }
        guard !certificates.isEmpty else { throw SAMLError("The metadata has no signing certificate.") }
        return IdentityProviderMetadata(
            entityID: entityID, singleSignOn: singleSignOn, singleLogout: try services("SingleLogoutService"),
            signingCertificates: certificates, wantsSignedRequests: descriptor.attribute("WantAuthnRequestsSigned") == "true")
    }

    /// A certificate's base64 DER (whitespace allowed) as PEM.
    static func pem(fromBase64 text: String) throws -> String {
        let compact = text.filter { !$0.isWhitespace }
        guard let der = Data(base64Encoded: compact), !der.isEmpty else {
            throw SAMLError("A signing certificate in the metadata is not base64.")
        }
        let lines = stride(from: 0, to: compact.count, by: 64).map { start -> String in
            let from = compact.index(compact.startIndex, offsetBy: start)
            let to = compact.index(from, offsetBy: min(64, compact.count - start))
            return String(compact[from..<to])
        }
        return "-----BEGIN CERTIFICATE-----\n" + lines.joined(separator: "\n") + "\n-----END CERTIFICATE-----\n"
    }
}
