import CognateProtocol
import Foundation

/// Whether the authenticator must verify the user (biometrics, device passcode) as well as
/// see them present (WebAuthn's `userVerification`).
public enum PasskeyUserVerification: String, Sendable, Equatable {
    case required
    case preferred
    case discouraged
}

/// What the server asks an authenticator to create — its `PublicKeyCredentialCreationOptionsJSON`
/// (StartWebAuthnRegistration's `CredentialCreationOptions`) with the bytes decoded: the input
/// of ``PasskeyAuthenticator/createPasskey(optionsJSON:)``, read by ``init(json:)``.
public struct PasskeyCreationOptions: Sendable, Equatable {
    /// The relying party: the domain the passkey belongs to (`rp.id`), and its name for the user.
    public var relyingPartyId: String
    public var relyingPartyName: String
    /// The user handle the passkey stores and returns at every sign-in (`user.id`).
    public var userId: Data
    public var userName: String
    public var userDisplayName: String
    public var challenge: Data
    /// COSE algorithms the server accepts, most preferred first (-7: ES256, -257: RS256).
    public var algorithms: [Int]
    /// Passkeys the user has already: the authenticator must not make another of these.
    public var excludedCredentialIds: [Data]
    public var userVerification: PasskeyUserVerification
    /// How long the ceremony may take, when the server suggests it.
    public var timeout: TimeInterval?

    public init(
        relyingPartyId: String, relyingPartyName: String, userId: Data, userName: String, userDisplayName: String,
        challenge: Data, algorithms: [Int], excludedCredentialIds: [Data] = [],
        userVerification: PasskeyUserVerification = .preferred, timeout: TimeInterval? = nil
    ) {
        self.relyingPartyId = relyingPartyId
        self.relyingPartyName = relyingPartyName
        self.userId = userId
        self.userName = userName
        self.userDisplayName = userDisplayName
        self.challenge = challenge
        self.algorithms = algorithms
        self.excludedCredentialIds = excludedCredentialIds
        self.userVerification = userVerification
        self.timeout = timeout
    }

    /// Reads the options JSON (members WebAuthn leaves optional take their defaults).
    /// - Throws: ``PasskeyJSONError`` when a required member is missing or malformed.
    public init(json: String) throws {
        let options = try PasskeyJSONObject(text: json, name: "PublicKeyCredentialCreationOptions")
        let rp = try options.object("rp")
        let user = try options.object("user")
        let selection = options.optionalObject("authenticatorSelection")
        self.init(
            relyingPartyId: try rp.string("id"), relyingPartyName: rp.optionalString("name") ?? "",
            userId: try user.bytes("id"), userName: try user.string("name"),
            userDisplayName: user.optionalString("displayName") ?? "", challenge: try options.bytes("challenge"),
            algorithms: try options.objects("pubKeyCredParams").compactMap { $0.optionalInt("alg") },
            excludedCredentialIds: try options.optionalObjects("excludeCredentials").map { try $0.bytes("id") },
            userVerification: selection?.optionalString("userVerification").flatMap(PasskeyUserVerification.init) ?? .preferred,
            timeout: options.optionalInt("timeout").map { TimeInterval($0) / 1000 })
    }
}

/// What the server asks an authenticator to sign — its `PublicKeyCredentialRequestOptionsJSON`
/// (the WEB_AUTHN challenge's `CREDENTIAL_REQUEST_OPTIONS`) with the bytes decoded: the input
/// of ``PasskeyAuthenticator/assertPasskey(optionsJSON:)``, read by ``init(json:)``.
public struct PasskeyRequestOptions: Sendable, Equatable {
    public var relyingPartyId: String
    public var challenge: Data
    /// The passkeys the server accepts (the user's); empty: any of the relying party's.
    public var allowedCredentialIds: [Data]
    public var userVerification: PasskeyUserVerification
    public var timeout: TimeInterval?

    public init(
        relyingPartyId: String, challenge: Data, allowedCredentialIds: [Data] = [],
        userVerification: PasskeyUserVerification = .preferred, timeout: TimeInterval? = nil
    ) {
        self.relyingPartyId = relyingPartyId
        self.challenge = challenge
        self.allowedCredentialIds = allowedCredentialIds
        self.userVerification = userVerification
        self.timeout = timeout
    }

    /// Reads the options JSON.
    /// - Throws: ``PasskeyJSONError`` when a required member is missing or malformed.
    public init(json: String) throws {
        let options = try PasskeyJSONObject(text: json, name: "PublicKeyCredentialRequestOptions")
        self.init(
            relyingPartyId: try options.string("rpId"), challenge: try options.bytes("challenge"),
            allowedCredentialIds: try options.optionalObjects("allowCredentials").map { try $0.bytes("id") },
            userVerification: options.optionalString("userVerification").flatMap(PasskeyUserVerification.init) ?? .preferred,
            timeout: options.optionalInt("timeout").map { TimeInterval($0) / 1000 })
    }
}

/// A passkey ceremony's JSON that cannot be used: options that lack what an authenticator
/// needs, or an authenticator's answer that is not a WebAuthn response.
public struct PasskeyJSONError: Error, Sendable, Equatable, CustomStringConvertible {
    public var detail: String

    public init(_ detail: String) { self.detail = detail }

    public var description: String { detail }
}

/// The members of a WebAuthn JSON object, read strictly; binary members are base64url.
struct PasskeyJSONObject {
    let members: [String: JSONValue]
    let name: String

    init(_ value: JSONValue, name: String) throws {
        guard case .object(let members) = value else { throw PasskeyJSONError("\(name) is not a JSON object.") }
        self.members = members
        self.name = name
    }

    init(text: String, name: String) throws {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            throw PasskeyJSONError("\(name) is not JSON.")
        }
        try self.init(value, name: name)
    }

    func object(_ key: String) throws -> PasskeyJSONObject {
        guard let value = members[key] else { throw PasskeyJSONError("\(name).\(key) is missing.") }
        return try PasskeyJSONObject(value, name: "\(name).\(key)")
    }

    func optionalObject(_ key: String) -> PasskeyJSONObject? {
        members[key].flatMap { try? PasskeyJSONObject($0, name: "\(name).\(key)") }
    }

    func objects(_ key: String) throws -> [PasskeyJSONObject] {
        guard case .array(let values)? = members[key] else { throw PasskeyJSONError("\(name).\(key) is not a list.") }
        return try values.enumerated().map { try PasskeyJSONObject($0.element, name: "\(name).\(key)[\($0.offset)]") }
    }

    func optionalObjects(_ key: String) throws -> [PasskeyJSONObject] {
        members[key] == nil || members[key] == .null ? [] : try objects(key)
    }

    func optionalString(_ key: String) -> String? {
        if case .string(let text)? = members[key] { return text }
        return nil
    }

    func string(_ key: String) throws -> String {
        guard let text = optionalString(key), !text.isEmpty else { throw PasskeyJSONError("\(name).\(key) is missing.") }
        return text
    }

    func optionalInt(_ key: String) -> Int? {
        guard case .number(let value)? = members[key], value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }

    func bytes(_ key: String) throws -> Data {
        guard let bytes = Base64URL.decode(try string(key)), !bytes.isEmpty else {
            throw PasskeyJSONError("\(name).\(key) is not base64url.")
        }
        return bytes
    }
}
