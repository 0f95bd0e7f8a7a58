import Foundation

/// The client data a browser or platform signs over (WebAuthn §5.8.1), parsed from
/// `clientDataJSON`. Members this library does not use (`tokenBinding`, extra data) are ignored.
public struct CollectedClientData: Equatable, Sendable {
    /// `webauthn.create` for a registration, `webauthn.get` for an assertion.
    public let type: String
    /// The challenge, decoded from its base64url text.
    public let challenge: [UInt8]
    public let origin: String
    /// True only when the member is present and true.
    public let crossOrigin: Bool
    public let topOrigin: String?
    /// The bytes it was parsed from: the signed hash is theirs.
    public let json: [UInt8]

    public static let registrationType = "webauthn.create"
    public static let assertionType = "webauthn.get"

    private struct Members: Decodable {
        var type: String
        var challenge: String
        var origin: String
        var crossOrigin: Bool?
        var topOrigin: String?
    }

    /// Parses `clientDataJSON`: a UTF-8 JSON object with string `type`, `challenge` (strict
    /// base64url) and `origin`, an optional boolean `crossOrigin` and optional string `topOrigin`.
    public init(json bytes: [UInt8]) throws(WebAuthnError) {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw .malformed(.clientDataJSON, "not UTF-8") }
        let members: Members
        do {
            members = try JSONDecoder().decode(Members.self, from: Data(bytes))
        } catch {
            throw .malformed(.clientDataJSON, "not a JSON object with string type, challenge and origin")
        }
        guard let challenge = WebAuthnBase64URL.decode(members.challenge) else {
            throw .malformed(.clientDataJSON, "challenge is not unpadded base64url")
        }
        type = members.type
        self.challenge = challenge
        origin = members.origin
        crossOrigin = members.crossOrigin ?? false
        topOrigin = members.topOrigin
        json = bytes
    }
}
