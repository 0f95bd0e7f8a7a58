import Foundation

/// A verification code the user was sent and has not entered yet.
///
/// The ``AuthClient`` keeps these in the profile's ``TokenStore`` record — from the call that
/// sent the code until the call that accepts it — so that an app killed on its code screen
/// can show that screen again after a restart (``AuthClient/pendingCodes()``), as
/// ``RegistrationFlow`` does for its own steps.
public struct PendingCode: Sendable, Equatable, Codable {
    public enum Purpose: Sendable, Hashable, Codable {
        /// For ``AuthClient/confirmSignUp(username:code:clientMetadata:)``.
        case signUp(username: String)
        /// For ``AuthClient/confirmForgotPassword(username:code:newPassword:clientMetadata:)``.
        case passwordReset(username: String)
        /// For ``AuthClient/confirmAttribute(_:code:)`` (the signed-in user's `email` or
        /// `phone_number`).
        case attributeVerification(attribute: String)
    }

    public var purpose: Purpose
    /// Where it went, when the server said (a reset an administrator required, or an
    /// unconfirmed account met at sign-in, have none: the code went out earlier).
    public var delivery: CodeDelivery?
    /// When this device asked for it (codes expire: Cognito's sign-up codes after 24 hours,
    /// reset codes after one).
    public var requestedAt: Date

    public init(purpose: Purpose, delivery: CodeDelivery?, requestedAt: Date = Date()) {
        self.purpose = purpose
        self.delivery = delivery
        self.requestedAt = requestedAt
    }
}
