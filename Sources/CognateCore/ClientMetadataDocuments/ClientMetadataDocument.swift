import Foundation

/// A client ID metadata document (draft-ietf-oauth-client-id-metadata-document, its members
/// from RFC 7591) as Cognate accepts it: the client's registration for an authorization.
struct ClientMetadataDocument: Sendable, Equatable {
    var clientId: String
    var clientName: String?
    var redirectURIs: [String]
    /// RFC 7591's default: `authorization_code`.
    var grantTypes: [String]
    /// The scopes the client may ask for (`scope`, space-separated); nil: what its app client allows.
    var scopes: [String]?

    /// The most bytes a document may have (the draft's suggested bound).
    static let maximumSize = 5_120

    /// Parses and checks a fetched document for `url`. Cognito's rules: a public client
    /// (`token_endpoint_auth_method` `none`), never `client_credentials`. The draft's: the
    /// document names its own URL as `client_id`, exactly; at least one redirect URI, each
    /// absolute without a fragment.
    static func parse(_ body: Data, for url: String) throws(Refusal) -> ClientMetadataDocument {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw Refusal("the document is not a JSON object")
        }
        guard object["client_id"] as? String == url else { throw Refusal("its client_id is not the URL it was fetched from") }
        guard object["token_endpoint_auth_method"] as? String == "none" else {
            throw Refusal("token_endpoint_auth_method must be none (a public client)")
        }
        guard let redirects = object["redirect_uris"] as? [String], !redirects.isEmpty,
            redirects.allSatisfy(Self.isRedirectURI)
        else { throw Refusal("redirect_uris must list addresses an app client could register as callback URLs") }
        let grants = object["grant_types"].map { $0 as? [String] } ?? ["authorization_code"]
        guard let grants, grants.contains("authorization_code"), !grants.contains("client_credentials") else {
            throw Refusal("grant_types must include authorization_code and not client_credentials")
        }
        if let responses = object["response_types"] {
            guard let responses = responses as? [String], responses.contains("code") else {
                throw Refusal("response_types must include code")
            }
        }
        let scope = object["scope"].map { $0 as? String }
        if case .some(.none) = scope { throw Refusal("scope must be a string") }
        return ClientMetadataDocument(
            clientId: url, clientName: object["client_name"] as? String, redirectURIs: redirects, grantTypes: grants,
            scopes: scope?.map { $0.split(separator: " ").map(String.init) })
    }

    /// An address an app client could register as a callback URL (``RedirectURLs``: https,
    /// http to this machine only, or an app's own scheme; no fragment, wildcard or script scheme).
    private static func isRedirectURI(_ text: String) -> Bool {
        text.count <= 1024 && (try? RedirectURLs.check(text)) != nil
    }

    /// Why a document is refused (for the operator's log).
    struct Refusal: Error, Equatable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
