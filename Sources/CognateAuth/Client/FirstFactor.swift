import CognateProtocol
import Foundation

/// A way to begin a choice-based sign-in (Cognito's `USER_AUTH`): what
/// ``AuthClient/signIn(username:preferred:clientMetadata:)`` may prefer, what a
/// ``SignInStep/firstFactorSelection(_:)`` offers, and what ``AuthClient/fetchAuthFactors()``
/// lists. A user is offered the factors the pool allows (its sign-in policy) and the user can
/// use: a password they have, a code to a verified email address or phone number, a passkey
/// they registered.
public enum FirstFactor: String, Sendable, Equatable, Hashable, CaseIterable {
    /// The password, sent over TLS (as ``SignInFlow/password``).
    case password = "PASSWORD"
    /// The password, proved without being sent (SRP, as ``SignInFlow/srp``).
    case passwordSRP = "PASSWORD_SRP"
    /// A one-time code sent by email.
    case emailOTP = "EMAIL_OTP"
    /// A one-time code sent by SMS.
    case smsOTP = "SMS_OTP"
    /// A passkey (WebAuthn).
    case webAuthn = "WEB_AUTHN"

    /// Whether the factor is the password (it is answered with
    /// ``AuthClient/confirmSignIn(password:clientMetadata:)``).
    public var isPassword: Bool { self == .password || self == .passwordSRP }

    /// The factor of a challenge name the server offers (`AvailableChallenges`), if any.
    init?(challenge: ChallengeNameType) {
        self.init(rawValue: challenge.rawValue)
    }

    /// The factor GetUserAuthFactors names (`PASSWORD` stands for both password factors).
    init?(authFactor: AuthFactorType) {
        self.init(rawValue: authFactor.rawValue)
    }
}
