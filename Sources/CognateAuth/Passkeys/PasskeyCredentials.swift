import CognateProtocol
import Foundation

/// A passkey an authenticator created (`navigator.credentials.create()`'s result): the output
/// of ``PasskeyAuthenticator/createPasskey(optionsJSON:)`` as ``json`` writes it
/// (`RegistrationResponseJSON`, what CompleteWebAuthnRegistration takes).
public struct PasskeyRegistration: Sendable, Equatable {
    public var credentialId: Data
    /// The client data the authenticator signed over, as it made it (JSON bytes).
    public var clientDataJSON: Data
    /// The CBOR attestation object: the authenticator data with the new public key, and the
    /// attestation statement.
    public var attestationObject: Data
    /// How the passkey can be reached (`internal`, `hybrid`, `usb` …).
    public var transports: [String]
    /// `platform` (built into the device) or `cross-platform` (a security key); nil when unknown.
    public var attachment: String?

    public init(
        credentialId: Data, clientDataJSON: Data, attestationObject: Data, transports: [String] = [],
        attachment: String? = nil
    ) {
        self.credentialId = credentialId
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
        self.attachment = attachment
    }

    /// `RegistrationResponseJSON`: bytes as base64url, no client extension results.
    public var json: String {
        var members: [String: JSONValue] = [
            "id": .string(Base64URL.encode(credentialId)), "rawId": .string(Base64URL.encode(credentialId)),
            "type": "public-key", "clientExtensionResults": .object([:]),
            "response": .object([
                "clientDataJSON": .string(Base64URL.encode(clientDataJSON)),
                "attestationObject": .string(Base64URL.encode(attestationObject)),
                "transports": .array(transports.map(JSONValue.string)),
            ]),
        ]
        if let attachment { members["authenticatorAttachment"] = .string(attachment) }
        return String(decoding: JSONValue.object(members).jsonBytes, as: UTF8.self)
    }
}

/// A passkey's signature over a sign-in challenge (`navigator.credentials.get()`'s result):
/// the output of ``PasskeyAuthenticator/assertPasskey(optionsJSON:)`` as ``json`` writes it
/// (`AuthenticationResponseJSON`, the WEB_AUTHN challenge's answer).
public struct PasskeyAssertion: Sendable, Equatable {
    public var credentialId: Data
    public var clientDataJSON: Data
    public var authenticatorData: Data
    public var signature: Data
    /// The user handle the passkey was created with (its `user.id`).
    public var userHandle: Data?
    public var attachment: String?

    public init(
        credentialId: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?,
        attachment: String? = nil
    ) {
        self.credentialId = credentialId
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
        self.attachment = attachment
    }

    /// `AuthenticationResponseJSON`: bytes as base64url, no client extension results.
    public var json: String {
        var response: [String: JSONValue] = [
            "clientDataJSON": .string(Base64URL.encode(clientDataJSON)),
            "authenticatorData": .string(Base64URL.encode(authenticatorData)),
            "signature": .string(Base64URL.encode(signature)),
        ]
        if let userHandle { response["userHandle"] = .string(Base64URL.encode(userHandle)) }
        var members: [String: JSONValue] = [
            "id": .string(Base64URL.encode(credentialId)), "rawId": .string(Base64URL.encode(credentialId)),
            "type": "public-key", "clientExtensionResults": .object([:]), "response": .object(response),
        ]
        if let attachment { members["authenticatorAttachment"] = .string(attachment) }
        return String(decoding: JSONValue.object(members).jsonBytes, as: UTF8.self)
    }
}
