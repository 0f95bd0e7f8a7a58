import CognateProtocol
import Foundation

/// The tokens of one successful authentication or refresh.
public struct IssuedTokens: Sendable {
    public var idToken: String
    public var accessToken: String
    /// Present on sign-in, absent on refresh (refresh tokens are not replaced).
    public var refreshToken: String?
    public var expiresIn: Int
    /// A device seen for the first time in a pool that tracks devices: its key and group key,
    /// for the client to confirm (ConfirmDevice).
    var newDevice: NewDeviceMetadataType? = nil
    /// The token family the tokens belong to.
    var originJti: String? = nil

    var authenticationResult: AuthenticationResultType {
        AuthenticationResultType(
            accessToken: accessToken, expiresIn: expiresIn, tokenType: "Bearer", refreshToken: refreshToken,
            idToken: idToken, newDeviceMetadata: newDevice)
    }
}

/// What the tokens of an authentication say about it.
struct TokenContext {
    var pool: PoolRecord
    var client: ClientRecord
    var user: UserRecord
    /// `origin_jti`: the id of the token family (one per authentication).
    var originJti: String
    var authTime: Date
    /// The user's groups, by precedence (lowest first).
    var groups: [GroupRecord] = []
    /// What the pool's PreTokenGeneration function changed, if it has one.
    var overrides: ClaimOverrides?
    /// The remembered device the tokens go to (`device_key` in the access token).
    var deviceKey: String?
    /// OAuth scopes granted by the hosted sign-in (the access token's `scope`); nil: the API's
    /// `aws.cognito.signin.user.admin`.
    var scopes: [String]? = nil
    /// The OpenID Connect `nonce` of the authorization request (ID token).
    var nonce: String? = nil
    /// A token exchange's audience (the access token's `aud`).
    var audience: [String]? = nil
    /// A token exchange's actor (RFC 8693 `act`, in both tokens).
    var actor: [String: JSONValue]? = nil
}

/// Mints Cognito-shaped ID and access tokens (cognito-protocol §6).
struct TokenIssuer: Sendable {
    let keys: SigningKeyRing
    let issuerBase: String
    let random: any RandomSource

    func issuer(poolId: String) -> String { issuerBase + "/" + poolId }

    func issue(_ context: TokenContext, now: Date) async throws -> (idToken: String, accessToken: String, expiresIn: Int) {
        let key = try await keys.signingKey(for: context.pool.id, now: now)
        let validity = TokenValidity(client: context.client.settings)
        let iat = now.timeIntervalSince1970.rounded(.down)
        let eventId = random.uuid()
        var common: [String: JSONValue] = [
            "sub": .string(context.user.sub),
            "iss": .string(issuer(poolId: context.pool.id)),
            "origin_jti": .string(context.originJti),
            "event_id": .string(eventId),
            "auth_time": .number(context.authTime.timeIntervalSince1970.rounded(.down)),
            "iat": .number(iat),
        ]
        if !context.groups.isEmpty { common["cognito:groups"] = .array(context.groups.map { .string($0.name) }) }

        var access = common
        access["token_use"] = "access"
        access["client_id"] = .string(context.client.clientId)
        access["scope"] = .string(context.scopes?.joined(separator: " ") ?? "aws.cognito.signin.user.admin")
        access["username"] = .string(context.user.username)
        if let deviceKey = context.deviceKey { access["device_key"] = .string(deviceKey) }
        access["jti"] = .string(random.uuid())
        access["exp"] = .number(iat + validity.accessToken.rounded(.down))

        var id = common
        for (name, value) in Self.attributeClaims(context.user, readable: context.client.settings.readAttributes) {
            id[name] = value
        }
        for (name, value) in Self.roleClaims(context.groups) { id[name] = value }
        id["token_use"] = "id"
        id["aud"] = .string(context.client.clientId)
        id["cognito:username"] = .string(context.user.username)
        if let nonce = context.nonce { id["nonce"] = .string(nonce) }
        id["jti"] = .string(random.uuid())
        id["exp"] = .number(iat + validity.idToken.rounded(.down))

        context.overrides?.applyToIDToken(&id)
        context.overrides?.applyToAccessToken(&access)
        if let audience = context.audience {
            access["aud"] = audience.count == 1 ? .string(audience[0]) : .array(audience.map { .string($0) })
        }
        if let actor = context.actor {
            access["act"] = .object(actor)
            id["act"] = .object(actor)
        }
        return (try JWT.sign(claims: id, with: key), try JWT.sign(claims: access, with: key), Int(validity.accessToken))
    }

    /// The access token of the client credentials grant: the app client acting for itself
    /// (`sub` is the client id), with the custom scopes it was granted; no ID token.
    func issueClientCredentials(pool: PoolRecord, client: ClientRecord, scopes: [String], now: Date) async throws
        -> (accessToken: String, expiresIn: Int)
    {
        let key = try await keys.signingKey(for: pool.id, now: now)
        let validity = TokenValidity(client: client.settings)
        let iat = now.timeIntervalSince1970.rounded(.down)
        let claims: [String: JSONValue] = [
            "sub": .string(client.clientId), "client_id": .string(client.clientId), "token_use": "access",
            "scope": .string(scopes.joined(separator: " ")), "iss": .string(issuer(poolId: pool.id)),
            "auth_time": .number(iat), "iat": .number(iat), "exp": .number(iat + validity.accessToken.rounded(.down)),
            "jti": .string(random.uuid()), "version": .number(2),
        ]
        return (try JWT.sign(claims: claims, with: key), Int(validity.accessToken))
    }

    /// `cognito:roles` (every group role) and `cognito:preferred_role` (the role of the group
    /// with the lowest precedence that has one; left out when groups of that precedence name
    /// different roles), ID token only. `groups` are ordered by precedence.
    static func roleClaims(_ groups: [GroupRecord]) -> [String: JSONValue] {
        let withRoles = groups.filter { $0.roleArn != nil }
        guard let first = withRoles.first else { return [:] }
        var seen = Set<String>()
        let roles = withRoles.compactMap(\.roleArn).filter { seen.insert($0).inserted }
        var claims: [String: JSONValue] = ["cognito:roles": .array(roles.map(JSONValue.string))]
        let tied = Set(withRoles.filter { $0.precedence == first.precedence }.compactMap(\.roleArn))
        if tied.count == 1, let preferred = first.roleArn { claims["cognito:preferred_role"] = .string(preferred) }
        return claims
    }

    /// Attribute claims of the ID token: every attribute the client may read, verified flags as
    /// booleans (`false` when the user has the address but it is not verified, as Cognito
    /// sends), `updated_at` as a number, everything else (custom attributes too) as strings.
    static func attributeClaims(_ user: UserRecord, readable: [String]?) -> [String: JSONValue] {
        let allowed = readable.map(Set.init)
        var attributes = user.attributes
        for address in ["email", "phone_number"] where attributes[address] != nil && attributes["\(address)_verified"] == nil {
            attributes["\(address)_verified"] = "false"
        }
        var claims: [String: JSONValue] = [:]
        for (name, value) in attributes where allowed?.contains(name) ?? true {
            guard !name.hasPrefix("dev:") else { continue }
            switch name {
            case "email_verified", "phone_number_verified":
                claims[name] = .bool(value == "true")
            case "updated_at":
                claims[name] = Double(value).map(JSONValue.number) ?? .string(value)
            case "identities":
                // Federated identities are a JSON array in the ID token, as Cognito sends them.
                claims[name] = (try? JSONDecoder().decode(JSONValue.self, from: Data(value.utf8))) ?? .string(value)
            default:
                claims[name] = .string(value)
            }
        }
        return claims
    }
}
