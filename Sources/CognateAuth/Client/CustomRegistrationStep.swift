/// Where a custom registration stands (``AuthClient/startCustomRegistration(data:clientMetadata:)``).
public enum CustomRegistrationStep: Sendable, Equatable {
    /// The pool's function asks something: show what `data` says (its meaning is agreed
    /// between the app and the function) and answer with
    /// ``AuthClient/respondToCustomRegistration(data:clientMetadata:)``.
    case challenge(data: String?)
    /// The account exists. `signIn` is where its sign-in stands: `.signedIn` (tokens stored),
    /// or a step the pool requires first (setting up MFA), answered as any sign-in's.
    /// `customInformation` is what the function returned for the app.
    case registered(userId: String, signIn: SignInStep, customInformation: String?)
}
