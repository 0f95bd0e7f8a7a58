import Foundation

/// The pages of a hosted sign-up, password reset or passkey addition (stored by these names in
/// flows).
enum HostedStage: String, Codable, Sendable {
    case signUp
    case confirmSignUp
    case forgotPassword
    case resetPassword
    /// `/passkeys/add`, once a recent sign-in proved who adds it.
    case addPasskey
}

/// A hosted sign-in in progress (a flow: persisted, expiring, one step at a time): the
/// authorization request it answers and the challenge it waits for, if any.
struct HostedFlowState: BrowserBoundFlow {
    var request: AuthorizationRequest
    /// The digest of the ``BrowserBinding`` the flow was started in; every step must come from it.
    var binding: String?
    /// Where a sign-up, a password reset or a passkey addition stands; nil while signing in.
    var stage: HostedStage?
    var username: String?
    var challenge: String?
    var session: String?
    var page: HostedPageState?
    /// `/passkeys/add`: the sign-in that proved who adds the passkey.
    var signedIn: RecentSignIn?
}

/// What a challenge page needs to be shown again (with an error).
struct HostedPageState: Codable, Sendable {
    var notice: String?
    /// MFA_SETUP: the secret AssociateSoftwareToken gave.
    var secret: String?
    var destination: String?
    var requiredAttributes: [String]?
    var factors: [String]?
    /// Choice-based sign-in: the name as the user typed it (shown on every page).
    var name: String?
    /// Choice-based sign-in: the first factors the user was offered (as the pages list them).
    var offered: [String]?
    /// A passkey's request or creation options (JSON).
    var options: String?
    /// An EMAIL_OTP or SMS_OTP challenge that signs in alone (not a second factor).
    var firstFactor: Bool?
}
