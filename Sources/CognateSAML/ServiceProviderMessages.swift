import Foundation

/// The messages a service provider sends: an AuthnRequest and a LogoutRequest, as XML for the
/// redirect binding.
public enum ServiceProviderMessages {
    /// An AuthnRequest from `entityID` asking for a response at `assertionConsumer` by the POST binding.
    public static func authnRequest(id: String, entityID: String, destination: String, assertionConsumer: String,
                                    now: Date) -> String {
        "<samlp:AuthnRequest xmlns:samlp=\"\(SAMLNamespace.protocol_)\" xmlns:saml=\"\(SAMLNamespace.assertion)\""
            + " ID=\"\(xmlEscaped(id))\" Version=\"2.0\" IssueInstant=\"\(SAMLInstant.format(now))\""
            + " Destination=\"\(xmlEscaped(destination))\" AssertionConsumerServiceURL=\"\(xmlEscaped(assertionConsumer))\""
            + " ProtocolBinding=\"\(SAMLBinding.post)\">"
            + "<saml:Issuer>\(xmlEscaped(entityID))</saml:Issuer>"
            + "<samlp:NameIDPolicy Format=\"urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified\" AllowCreate=\"true\"/>"
            + "</samlp:AuthnRequest>"
    }

    /// A LogoutRequest from `entityID` for the user the IdP named `nameID` (in `format`), in the
    /// IdP session `sessionIndex`.
    public static func logoutRequest(id: String, entityID: String, destination: String, nameID: String, format: String?,
                                     sessionIndex: String?, now: Date) -> String {
        let formatAttribute = format.map { " Format=\"\(xmlEscaped($0))\"" } ?? ""
        let session = sessionIndex.map { "<samlp:SessionIndex>\(xmlEscaped($0))</samlp:SessionIndex>" } ?? ""
        return "<samlp:LogoutRequest xmlns:samlp=\"\(SAMLNamespace.protocol_)\" xmlns:saml=\"\(SAMLNamespace.assertion)\""
            + " ID=\"\(xmlEscaped(id))\" Version=\"2.0\" IssueInstant=\"\(SAMLInstant.format(now))\""
            + " Destination=\"\(xmlEscaped(destination))\">"
            + "<saml:Issuer>\(xmlEscaped(entityID))</saml:Issuer>"
            + "<saml:NameID\(formatAttribute)>\(xmlEscaped(nameID))</saml:NameID>\(session)"
            + "</samlp:LogoutRequest>"
    }

    /// A LogoutResponse (success) to the IdP's LogoutRequest `inResponseTo`.
    public static func logoutResponse(id: String, entityID: String, destination: String, inResponseTo: String,
                                      now: Date) -> String {
        "<samlp:LogoutResponse xmlns:samlp=\"\(SAMLNamespace.protocol_)\" xmlns:saml=\"\(SAMLNamespace.assertion)\""
            + " ID=\"\(xmlEscaped(id))\" Version=\"2.0\" IssueInstant=\"\(SAMLInstant.format(now))\""
            + " Destination=\"\(xmlEscaped(destination))\" InResponseTo=\"\(xmlEscaped(inResponseTo))\">"
            + "<saml:Issuer>\(xmlEscaped(entityID))</saml:Issuer>"
            + "<samlp:Status><samlp:StatusCode Value=\"urn:oasis:names:tc:SAML:2.0:status:Success\"/></samlp:Status>"
            + "</samlp:LogoutResponse>"
    }
}
