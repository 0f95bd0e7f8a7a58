import Foundation

/// What a passkey sign-in asks for (``SignInStep/passkeyRequired(_:)``): answer with
/// ``AuthClient/confirmSignIn(passkey:clientMetadata:)``, which hands ``optionsJSON`` to the
/// authenticator.
public struct PasskeyRequest: Sendable, Equatable {
    /// The domain the passkeys belong to.
    public var relyingPartyId: String
    /// The user's passkeys the server accepts (credential IDs, base64url).
    public var allowedCredentialIds: [String]
    /// Whether the authenticator must verify the user (biometrics, passcode).
    public var userVerification: PasskeyUserVerification
    /// The server's `PublicKeyCredentialRequestOptionsJSON`, unchanged.
    public var optionsJSON: String

    public init(
        relyingPartyId: String, allowedCredentialIds: [String], userVerification: PasskeyUserVerification,
        optionsJSON: String
    ) {
        self.relyingPartyId = relyingPartyId
        self.allowedCredentialIds = allowedCredentialIds
        self.userVerification = userVerification
        self.optionsJSON = optionsJSON
    }

    /// The request the server's options describe.
    /// - Throws: ``PasskeyJSONError`` for options an authenticator cannot use.
    init(optionsJSON: String) throws {
        let options = try PasskeyRequestOptions(json: optionsJSON)
        self.init(
            relyingPartyId: options.relyingPartyId, allowedCredentialIds: options.allowedCredentialIds.map(Base64URL.encode),
            userVerification: options.userVerification, optionsJSON: optionsJSON)
    }
}
