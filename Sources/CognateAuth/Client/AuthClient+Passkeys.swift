import CognateProtocol
import Foundation

extension AuthClient {
    /// Registers a passkey for the signed-in user: the server's creation options
    /// (`StartWebAuthnRegistration`) go to the authenticator, which creates the passkey (the
    /// user confirms with Face ID, Touch ID or the device passcode), and its answer goes back
    /// (`CompleteWebAuthnRegistration`). From then on the user can sign in with
    /// ``signIn(username:preferred:clientMetadata:)`` and `.webAuthn`.
    ///
    /// The pool must allow passkeys (WEB_AUTHN among its first factors) and name a relying
    /// party the authenticator may use (on Apple platforms, a domain of the app's Associated
    /// Domains).
    /// - Throws: ``AuthError`` — `authenticator` when no passkey was made (the user cancelled),
    ///   `webAuthnNotEnabled`, `webAuthnConfigurationMissing`, `webAuthnOriginNotAllowed`,
    ///   `webAuthnRelyingPartyMismatch`, `notAuthorized` (user verification the pool requires
    ///   is missing), `limitExceeded` (the user has as many passkeys as allowed), `notSignedIn`.
    public func associateWebAuthnCredential(authenticator: any PasskeyAuthenticator) async throws {
        let started = try await withAccessToken { accessToken in
            try await channel.send(
                CognitoAPI.StartWebAuthnRegistration.self, StartWebAuthnRegistrationRequest(accessToken: accessToken))
        }
        guard case .object = started.credentialCreationOptions else {
            throw AuthError.invalidResponse("StartWebAuthnRegistration sent no creation options.")
        }
        let options = String(decoding: started.credentialCreationOptions.jsonBytes, as: UTF8.self)
        let created = try await Self.ceremony { try await authenticator.createPasskey(optionsJSON: options) }
        guard let credential = try? JSONDecoder().decode(JSONValue.self, from: Data(created.utf8)),
            case .object = credential
        else { throw AuthError.authenticator(PasskeyJSONError("The authenticator's answer is not a JSON object.")) }
        try await withAccessToken { accessToken in
            _ = try await channel.send(CognitoAPI.CompleteWebAuthnRegistration.self, CompleteWebAuthnRegistrationRequest(
                accessToken: accessToken, credential: credential))
        }
    }

    /// The signed-in user's passkeys (`ListWebAuthnCredentials`, every page), oldest first.
    public func listWebAuthnCredentials() async throws -> [WebAuthnCredential] {
        var credentials: [WebAuthnCredential] = []
        var nextToken: String?
        repeat {
            let page = try await withAccessToken { accessToken in
                try await channel.send(CognitoAPI.ListWebAuthnCredentials.self, ListWebAuthnCredentialsRequest(
                    accessToken: accessToken, nextToken: nextToken))
            }
            credentials += page.credentials.map(WebAuthnCredential.init)
            nextToken = page.nextToken
        } while nextToken != nil
        return credentials
    }

    /// Removes one of the signed-in user's passkeys (`DeleteWebAuthnCredential`); it no longer
    /// signs in. (The passkey stays on the user's devices: their settings remove it there.)
    /// - Throws: ``AuthError`` — `resourceNotFound` when the user has no such passkey.
    public func deleteWebAuthnCredential(credentialId: String) async throws {
        try await withAccessToken { accessToken in
            _ = try await channel.send(CognitoAPI.DeleteWebAuthnCredential.self, DeleteWebAuthnCredentialRequest(
                accessToken: accessToken, credentialId: credentialId))
        }
    }
}

/// A passkey of the signed-in user, as ``AuthClient/listWebAuthnCredentials()`` lists them.
public struct WebAuthnCredential: Sendable, Equatable {
    /// Its credential ID (base64url): what ``AuthClient/deleteWebAuthnCredential(credentialId:)``
    /// takes.
    public var credentialId: String
    public var friendlyName: String
    /// The domain it belongs to.
    public var relyingPartyId: String
    /// `platform` (built into a device) or `cross-platform` (a security key), when known.
    public var authenticatorAttachment: String?
    /// How it can be reached (`internal`, `hybrid`, `usb` …).
    public var transports: [String]
    public var createdAt: Date

    public init(
        credentialId: String, friendlyName: String, relyingPartyId: String, authenticatorAttachment: String?,
        transports: [String], createdAt: Date
    ) {
        self.credentialId = credentialId
        self.friendlyName = friendlyName
        self.relyingPartyId = relyingPartyId
        self.authenticatorAttachment = authenticatorAttachment
        self.transports = transports
        self.createdAt = createdAt
    }

    init(_ description: WebAuthnCredentialDescription) {
        self.init(
            credentialId: description.credentialId, friendlyName: description.friendlyCredentialName,
            relyingPartyId: description.relyingPartyId, authenticatorAttachment: description.authenticatorAttachment,
            transports: description.authenticatorTransports, createdAt: description.createdAt)
    }
}
