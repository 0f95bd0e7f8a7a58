import Foundation

/// A `samlp:LogoutResponse` as the service provider reads it: which request it answers and
/// whether the provider ended its session.
public struct LogoutResponseReader: Sendable, Equatable {
    public var inResponseTo: String?
    public var status: String
    public var succeeded: Bool { status == SAMLResponseVerifier.success }

    /// The POST binding's base64 LogoutResponse from `identityProvider`, sent to `destination`:
    /// its Issuer (when named) must be the provider, its Destination (when named) ours, and a
    /// signature it carries must verify with the provider's certificates.
    public static func read(base64 value: String, from identityProvider: IdentityProviderMetadata, destination: String) throws
        -> LogoutResponseReader
    {
        guard value.count <= 100_000, let data = Data(base64Encoded: value.filter { !$0.isWhitespace }),
            let tree = XMLTree(data), let root = tree.root, root.isElement("LogoutResponse", in: SAMLNamespace.protocol_)
        else { throw SAMLError("The document is not a SAML LogoutResponse.") }
        try tree.registerIdentifiers()
        if let issuer = root.child("Issuer", in: SAMLNamespace.assertion), issuer.text != identityProvider.entityID {
            throw SAMLError("The LogoutResponse was issued by another provider (Issuer).")
        }
        if let named = root.attribute("Destination"), named != destination {
            throw SAMLError("The LogoutResponse is addressed to another service (Destination).")
        }
        _ = try SAMLResponseVerifier.verifySignature(of: root, idp: identityProvider)
        let code = root.child("Status", in: SAMLNamespace.protocol_)?.child("StatusCode", in: SAMLNamespace.protocol_)?
            .attribute("Value")
        return LogoutResponseReader(inResponseTo: root.attribute("InResponseTo"), status: code ?? "")
    }
}
