/// The two `NotAuthorizedException` answers the registration journey continues after.
///
/// Cognito gives many refusals this one type and tells them apart only in the message, so the
/// exact wordings of these two are recognized here, and nowhere else. Every other message —
/// a wrong secret hash ("Unable to verify secret hash for client …"), a disabled user, too many
/// attempts — is ``other`` and reaches the app as the error it is.
enum NotAuthorizedReason: Equatable {
    /// `ConfirmSignUp` of a confirmed account: "User cannot be confirmed. Current status is CONFIRMED".
    case alreadyConfirmed
    /// A sign-in with a wrong password: "Incorrect username or password."
    case incorrectCredentials
    case other

    init(message: String) {
        switch message {
        case "User cannot be confirmed. Current status is CONFIRMED": self = .alreadyConfirmed
        case "Incorrect username or password.": self = .incorrectCredentials
        default: self = .other
        }
    }
}
