/// What a WEB_AUTHN challenge remembers: who signs in, the challenge issued (base64url), the
/// relying party and whether user verification is required, and the device the sign-in came
/// from. A challenge for a name that is no user has a decoy subject and always fails.
struct PasskeySignInState: Codable, Sendable {
    var username: String
    var challenge: String
    var relyingPartyId: String
    var userVerificationRequired: Bool
    var deviceKey: String?
    var decoySubject: String?
}
