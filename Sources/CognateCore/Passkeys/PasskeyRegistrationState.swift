/// What a passkey registration remembers between StartWebAuthnRegistration and
/// CompleteWebAuthnRegistration: the challenge issued (base64url) and the relying party it
/// was issued for.
struct PasskeyRegistrationState: Codable, Sendable {
    var challenge: String
    var relyingPartyId: String
    var userVerificationRequired: Bool
}
