/// What ``AuthClient/signUp(username:password:attributes:validationData:clientMetadata:)`` produced
/// (its ``NextStep`` is also what ``AuthClient/confirmSignUp(username:code:clientMetadata:)`` returns).
public struct SignUpResult: Sendable, Equatable {
    public enum NextStep: Sendable, Equatable {
        /// The account is unconfirmed: ask for the code (delivery is nil when the pool sends
        /// none, e.g. when an administrator confirms accounts).
        case confirmSignUp(CodeDelivery?)
        /// The account is confirmed (a pre-sign-up check confirmed it, or the code did): sign in.
        case done
        /// The account is confirmed and the server gave a session that signs the user in
        /// without another factor: call ``AuthClient/autoSignIn(clientMetadata:)`` (within
        /// minutes; it works once).
        case completeAutoSignIn
    }

    /// The new user's `sub`.
    public var userSub: String
    public var nextStep: NextStep

    public init(userSub: String, nextStep: NextStep) {
        self.userSub = userSub
        self.nextStep = nextStep
    }
}
