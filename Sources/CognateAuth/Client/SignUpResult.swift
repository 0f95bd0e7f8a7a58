/// What ``AuthClient/signUp(username:password:attributes:validationData:clientMetadata:)`` produced.
public struct SignUpResult: Sendable, Equatable {
    public enum NextStep: Sendable, Equatable {
        /// The account is unconfirmed: ask for the code (delivery is nil when the pool sends
        /// none, e.g. when an administrator confirms accounts).
        case confirmSignUp(CodeDelivery?)
        /// The account is confirmed (a pre-sign-up check confirmed it): sign in.
        case done
    }

    /// The new user's `sub`.
    public var userSub: String
    public var nextStep: NextStep

    public init(userSub: String, nextStep: NextStep) {
        self.userSub = userSub
        self.nextStep = nextStep
    }
}
