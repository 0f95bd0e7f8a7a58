import CognateProtocol
import Foundation

/// The answer of a social provider (Google, Facebook, Login with Amazon, Sign in with Apple) as
/// each speaks it, made into claims for the mapping.
extension Federation {
    /// The claims of the provider's user: the code exchanged at the token endpoint (by the
    /// type's `token_request_method`: Facebook's Graph API takes a GET with the query; the
    /// others a POST form; Apple's client secret is a JWT signed here), then
    /// - Google: the ID token of that exchange, and the People API (`attributes_url` with
    ///   `personFields=` the mapped People fields the ID token lacks), each field's first value;
    /// - Facebook: `attributes_url` (`/me?fields=`) with the mapped claims and `id`;
    /// - Login with Amazon: `attributes_url` (`/user/profile`: `user_id`, `name`, `email`, …);
    /// - Apple: the ID token (`sub`, `email`, `email_verified`, …), and on a first sign-in the
    ///   name in the `user` form field Apple posted along (`firstName`, `lastName`, `name`),
    ///   never its email (the browser carries it; the ID token is Apple's word).
    /// An ID token comes straight from the provider over TLS (as OpenID Connect allows); its
    /// audience must be the client and its nonce ours.
    func socialClaims(code: String, nonce: String, provider: IdentityProviderRecord, endpoints: ProviderEndpoints,
                      answer: [String: String]) async throws -> [String: String] {
        let details = provider.details
        let clientId = details["client_id"] ?? ""
        var pairs = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", federationCallbackURL), ("client_id", clientId),
        ]
        if provider.type == .signInWithApple {
            let secret: String
            do {
                secret = try AppleClientSecret.make(
                    teamId: details["team_id"] ?? "", keyId: details["key_id"] ?? "", clientId: clientId,
                    privateKey: details["private_key"] ?? "", now: time.now)
            } catch {
                throw ProviderFailure(reason: "its private_key is not a PEM P-256 private key")
            }
            pairs.append(("client_secret", secret))
        } else {
            pairs.append(("client_secret", details["client_secret"] ?? ""))
        }
        let form = OAuth.formEncoded(pairs)
        let exchanged: [String: JSONValue]
        if details["token_request_method"] == "GET" {
            let base = endpoints.token.absoluteString
            guard let url = URL(string: base + (base.contains("?") ? "&" : "?") + form) else {
                throw ProviderFailure(reason: "its token_url is not a URL")
            }
            exchanged = try await upstreamCall("GET", url, headers: ["Accept": "application/json"], body: nil).fields
        } else {
            exchanged = try await upstreamCall("POST", endpoints.token, headers: [
                "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json",
            ], body: Data(form.utf8)).fields
        }
        var claims: [String: String] = [:]
        if let idToken = exchanged["id_token"]?.stringValue {
            guard let payload = Self.unverifiedPayload(of: idToken) else {
                throw ProviderFailure(reason: "its ID token is malformed")
            }
            guard Self.audiences(payload["aud"]).contains(clientId) else {
                throw ProviderFailure(reason: "its ID token was not issued to this client")
            }
            guard payload["nonce"]?.stringValue == nonce else { throw ProviderFailure(reason: "the ID token's nonce is not ours") }
            for (name, value) in payload { claims[name] = value.claimString }
        }
        let access = exchanged["access_token"]?.stringValue
        let wanted = Set(provider.attributeMapping.values).union([ProviderPreset.usernameClaim(of: provider.type)])
        switch provider.type {
        case .facebook, .loginWithAmazon:
            guard let access, let attributes = endpoints.userInfo else {
                throw ProviderFailure(reason: "it gave no access token")
            }
            var url = attributes
            if details["attributes_url_add_attributes"] == "true" {
                let fields = wanted.sorted().joined(separator: ",")
                url = URL(string: attributes.absoluteString + (fields.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? "")) ?? attributes
            }
            let info = try await upstreamCall("GET", url, headers: ["Authorization": "Bearer \(access)", "Accept": "application/json"], body: nil)
            for (name, value) in info.fields { claims[name] = value.claimString }
        case .google:
            let missing = wanted.filter { claims[$0] == nil && Self.peopleFields.contains($0) }.sorted()
            if !missing.isEmpty, let access, let people = endpoints.userInfo, details["attributes_url_add_attributes"] == "true",
                let url = URL(string: people.absoluteString + missing.joined(separator: ","))
            {
                let info = try await upstreamCall("GET", url, headers: ["Authorization": "Bearer \(access)", "Accept": "application/json"], body: nil)
                for (name, value) in info.fields where claims[name] == nil {
                    if let first = Self.firstValue(value) { claims[name] = first }
                }
            }
        case .signInWithApple:
            if let user = answer["user"], user.utf8.count <= 4096,
                case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: Data(user.utf8)),
                case .object(let name)? = fields["name"]
            {
                let first = name["firstName"]?.stringValue, last = name["lastName"]?.stringValue
                if claims["firstName"] == nil, let first { claims["firstName"] = first }
                if claims["lastName"] == nil, let last { claims["lastName"] = last }
                let full = [first, last].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
                if claims["name"] == nil, !full.isEmpty { claims["name"] = full }
            }
        default:
            break
        }
        return claims
    }

    /// The People API's `personFields`: a mapped claim that is none of them (and not in the ID
    /// token) is left out of the call, which Google would refuse.
    static let peopleFields: Set<String> = [
        "addresses", "ageRanges", "biographies", "birthdays", "calendarUrls", "clientData", "coverPhotos", "emailAddresses",
        "events", "externalIds", "genders", "imClients", "interests", "locales", "locations", "memberships", "metadata",
        "miscKeywords", "names", "nicknames", "occupations", "organizations", "phoneNumbers", "photos", "relations",
        "sipAddresses", "skills", "urls", "userDefined",
    ]

    /// The claims of a compact JWT (any algorithm), unverified: it was received from the provider itself.
    static func unverifiedPayload(of token: String) -> [String: JSONValue]? {
        let pieces = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= 16_384, pieces.count == 3, let data = Base64URL.decode(pieces[1]),
            case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: data)
        else { return nil }
        return fields
    }

    static func audiences(_ value: JSONValue?) -> [String] {
        switch value {
        case .string(let one)?: [one]
        case .array(let many)?: many.compactMap(\.stringValue)
        default: []
        }
    }

    /// A People API field as one value: a string as it is; a list's first entry's `value`
    /// (`phoneNumbers`, `emailAddresses`, `genders`), `formattedValue` or `displayName` (`names`).
    static func firstValue(_ value: JSONValue) -> String? {
        if let plain = value.claimString { return plain }
        guard case .array(let entries) = value, case .object(let first)? = entries.first else { return nil }
        return (first["value"] ?? first["formattedValue"] ?? first["displayName"])?.claimString
    }
}
