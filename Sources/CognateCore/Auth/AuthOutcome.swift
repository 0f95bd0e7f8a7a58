import CognateProtocol

/// The result of one step of an authentication: tokens, or the next challenge.
enum AuthOutcome: Sendable {
    case tokens(IssuedTokens)
    case challenge(ChallengeNameType, parameters: [String: String], session: String?)

    var initiateAuthResponse: InitiateAuthResponse {
        switch self {
        case .tokens(let tokens):
            InitiateAuthResponse(challengeParameters: [:], authenticationResult: tokens.authenticationResult)
        case .challenge(let name, let parameters, let session):
            InitiateAuthResponse(challengeName: name, session: session, challengeParameters: parameters)
        }
    }

    var adminInitiateAuthResponse: AdminInitiateAuthResponse {
        let r = initiateAuthResponse
        return AdminInitiateAuthResponse(
            challengeName: r.challengeName, session: r.session, challengeParameters: r.challengeParameters,
            authenticationResult: r.authenticationResult)
    }

    var respondToAuthChallengeResponse: RespondToAuthChallengeResponse {
        let r = initiateAuthResponse
        return RespondToAuthChallengeResponse(
            challengeName: r.challengeName, session: r.session, challengeParameters: r.challengeParameters,
            authenticationResult: r.authenticationResult)
    }

    var adminRespondToAuthChallengeResponse: AdminRespondToAuthChallengeResponse {
        let r = initiateAuthResponse
        return AdminRespondToAuthChallengeResponse(
            challengeName: r.challengeName, session: r.session, challengeParameters: r.challengeParameters,
            authenticationResult: r.authenticationResult)
    }
}

/// Names of AuthParameters / ChallengeResponses members.
enum AuthParameter {
    static let username = "USERNAME"
    static let password = "PASSWORD"
    static let secretHash = "SECRET_HASH"
    static let refreshToken = "REFRESH_TOKEN"
    static let srpA = "SRP_A"

    static func require(_ name: String, in parameters: [String: String]) throws -> String {
        guard let value = parameters[name], !value.isEmpty else {
            throw CognitoError.invalidParameter("Missing required parameter \(name)")
        }
        return value
    }
}
