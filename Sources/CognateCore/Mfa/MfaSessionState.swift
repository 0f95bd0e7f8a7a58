/// What an MFA challenge session remembers: the user it is for, and — in MFA_SETUP — how far
/// the authenticator app's set-up has come (AssociateSoftwareToken, then VerifySoftwareToken);
/// in SMS_MFA and EMAIL_OTP, the code sent (as an HMAC bound to user and address) and where.
struct MfaSessionState: Codable, Sendable {
    var username: String
    /// MFA_SETUP: the app's code was verified; answering the challenge now signs the user in.
    var verified: Bool = false
    /// The device the sign-in came from (its DEVICE_KEY), carried to the tokens.
    var deviceKey: String?
    /// SMS_MFA / EMAIL_OTP: `MfaCodes.hash` of the code sent, and the attribute it went to.
    var codeHash: String?
    var codeAttribute: String?
}
