/// What an MFA challenge session remembers: the user it is for, and — in MFA_SETUP — how far
/// the authenticator app's set-up has come (AssociateSoftwareToken, then VerifySoftwareToken);
/// in SMS_MFA and EMAIL_OTP, the code sent (as an HMAC bound to user and address) and where —
/// for email MFA being set up, the address given, which is not the user's until the code is.
/// The one-time codes of choice-based sign-in (EMAIL_OTP, SMS_OTP as first factors) keep the
/// same state: their answer is checked as an MFA code's is.
struct MfaSessionState: Codable, Sendable {
    var username: String
    /// MFA_SETUP: the app's code was verified; answering the challenge now signs the user in.
    var verified: Bool = false
    /// The device the sign-in came from (its DEVICE_KEY), carried to the tokens.
    var deviceKey: String?
    /// SMS_MFA / EMAIL_OTP: `MfaCodes.hash` of the code sent, and the attribute it went to.
    var codeHash: String?
    var codeAttribute: String?
    /// EMAIL_OTP after MFA_SETUP answered with `EMAIL`: the address the code went to. The
    /// user has no email address yet; the right code makes this one theirs, verified, and
    /// turns email MFA on.
    var setupAddress: String?
    /// A code challenge of choice-based sign-in for a name that is no user
    /// (PreventUserExistenceErrors): no code went out, every answer is wrong, and wrong answers
    /// count for this subject.
    var decoySubject: String?
    /// The code is a choice-based sign-in's first factor (EMAIL_OTP, SMS_OTP), not a second.
    var firstFactor: Bool?
}
