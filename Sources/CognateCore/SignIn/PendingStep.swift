import CognateProtocol

/// What a stored auth session waits for: a challenge answer of Cognito's API, or one of
/// Cognate's own steps that are no challenge — a hosted page's next form, a federated sign-in
/// waiting for its provider, an authorization code waiting for its exchange. Stored by name
/// (the challenge's wire name, or Cognate's own), so a session of one kind never answers for
/// another.
enum PendingStep: Sendable, Equatable {
    case challenge(ChallengeNameType)
    case hostedSignIn
    case federatedSignIn
    case authorizationCode
    /// A passkey registration waiting for CompleteWebAuthnRegistration.
    case passkeyRegistration
    /// A confirmed sign-up that InitiateAuth (USER_AUTH) may complete with its `Session`, or a
    /// sign-up waiting for its confirmation to open one.
    case signUpSignIn
    case signUpConfirmation
    /// A SAML AuthnRequest waiting for its response; a verified response waiting for its
    /// browser; an unsolicited assertion taken (kept to refuse it again); a SAML logout.
    case samlRequest
    case samlAnswer
    case samlAssertion
    case samlLogout
    /// A custom registration's challenge waiting for RespondToCustomRegistration.
    case customRegistration

    /// The name stored with the session.
    var storedName: String {
        switch self {
        case .challenge(let name): name.rawValue
        case .hostedSignIn: "HOSTED_SIGN_IN"
        case .federatedSignIn: "FEDERATED_SIGN_IN"
        case .authorizationCode: "AUTHORIZATION_CODE"
        case .passkeyRegistration: "PASSKEY_REGISTRATION"
        case .signUpSignIn: "SIGN_UP_SIGN_IN"
        case .signUpConfirmation: "SIGN_UP_CONFIRMATION"
        case .samlRequest: "SAML_REQUEST"
        case .samlAnswer: "SAML_ANSWER"
        case .samlAssertion: "SAML_ASSERTION"
        case .samlLogout: "SAML_LOGOUT"
        case .customRegistration: "CUSTOM_REGISTRATION"
        }
    }

    static let passwordVerifier = challenge(.passwordVerifier)
    static let devicePasswordVerifier = challenge(.devicePasswordVerifier)
    static let deviceSrpAuth = challenge(.deviceSrpAuth)
    static let newPasswordRequired = challenge(.newPasswordRequired)
    static let softwareTokenMfa = challenge(.softwareTokenMfa)
    static let selectMfaType = challenge(.selectMfaType)
    static let mfaSetup = challenge(.mfaSetup)
    static let customChallenge = challenge(.customChallenge)
}
