/// What an MFA challenge session remembers: the user it is for, and — in MFA_SETUP — how far
/// the authenticator app's set-up has come (AssociateSoftwareToken, then VerifySoftwareToken).
struct MfaSessionState: Codable, Sendable {
    var username: String
    /// MFA_SETUP: the app's code was verified; answering the challenge now signs the user in.
    var verified: Bool = false
    /// The device the sign-in came from (its DEVICE_KEY), carried to the tokens.
    var deviceKey: String?
}
