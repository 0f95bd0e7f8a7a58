import CognateProtocol
import CognateWebAuthn
import Foundation

/// A registration's answer (`RegistrationResponseJSON`, CompleteWebAuthnRegistration's
/// `Credential`), its byte fields decoded.
struct PasskeyRegistrationResponse: Sendable {
    var credentialId: [UInt8]
    var clientDataJSON: [UInt8]
    var attestationObject: [UInt8]
    var transports: [String]
    var authenticatorAttachment: String?

    init(_ credential: JSONValue) throws {
        let fields = try PasskeyJSON(credential, name: "Credential")
        let response = try fields.object("response")
        credentialId = try fields.credentialId()
        clientDataJSON = try response.bytes("clientDataJSON")
        attestationObject = try response.bytes("attestationObject")
        transports = response.strings("transports")
        authenticatorAttachment = fields.string("authenticatorAttachment")
    }
}

/// A sign-in's answer (`AuthenticationResponseJSON`, the WEB_AUTHN challenge's `CREDENTIAL`),
/// its byte fields decoded.
struct PasskeyAssertionResponse: Sendable {
    var credentialId: [UInt8]
    var clientDataJSON: [UInt8]
    var authenticatorData: [UInt8]
    var signature: [UInt8]
    var userHandle: [UInt8]?

    /// `text`: the JSON document as the challenge answer carries it (a string).
    init(json text: String) throws {
        guard text.utf8.count <= Self.maximumLength,
            let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        else { throw CognitoError.invalidParameter("CREDENTIAL is not a JSON document.") }
        let fields = try PasskeyJSON(value, name: "CREDENTIAL")
        let response = try fields.object("response")
        credentialId = try fields.credentialId()
        clientDataJSON = try response.bytes("clientDataJSON")
        authenticatorData = try response.bytes("authenticatorData")
        signature = try response.bytes("signature")
        userHandle = try response.optionalBytes("userHandle")
    }

    static let maximumLength = 64 * 1024
}

/// The members of a WebAuthn JSON document, read strictly: binary members are base64url
/// (padding tolerated, as some clients add it).
private struct PasskeyJSON {
    let members: [String: JSONValue]
    let name: String

    init(_ value: JSONValue, name: String) throws {
        guard case .object(let members) = value else { throw CognitoError.invalidParameter("\(name) must be a JSON object.") }
        self.members = members
        self.name = name
    }

    func object(_ key: String) throws -> PasskeyJSON {
        guard let value = members[key] else { throw CognitoError.invalidParameter("\(name).\(key) is missing.") }
        return try PasskeyJSON(value, name: "\(name).\(key)")
    }

    func string(_ key: String) -> String? {
        if case .string(let text) = members[key] { return text }
        return nil
    }

    func strings(_ key: String) -> [String] {
        guard case .array(let values) = members[key] else { return [] }
        return values.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    func optionalBytes(_ key: String) throws -> [UInt8]? {
        guard let value = members[key], value != .null else { return nil }
        guard case .string(let text) = value,
            let bytes = WebAuthnBase64URL.decode(text.hasSuffix("=") ? String(text.prefix { $0 != "=" }) : text)
        else { throw CognitoError.invalidParameter("\(name).\(key) must be base64url.") }
        return bytes
    }

    func bytes(_ key: String) throws -> [UInt8] {
        guard let bytes = try optionalBytes(key), !bytes.isEmpty else {
            throw CognitoError.invalidParameter("\(name).\(key) is missing.")
        }
        return bytes
    }

    /// The credential ID: `rawId`, which `id` must spell too; `type` must be `public-key`.
    func credentialId() throws -> [UInt8] {
        guard string("type") == "public-key" else { throw CognitoError.invalidParameter("\(name).type must be public-key.") }
        let raw = try bytes("rawId")
        if members["id"] != nil, try optionalBytes("id") != raw {
            throw CognitoError.invalidParameter("\(name).id and \(name).rawId differ.")
        }
        return raw
    }
}
