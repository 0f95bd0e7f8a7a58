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
    static let deviceKey = "DEVICE_KEY"

    /// Longest value accepted per parameter (Cognito's limits for usernames and passwords);
    /// anything else is bounded by `maximumValueLength`.
    static let maximumLengths = [username: 128, password: 256, "NEW_PASSWORD": 256, secretHash: 128]
    static let maximumValueLength = 8192
    static let maximumCount = 64

    /// Refuses AuthParameters or ChallengeResponses no real client sends, before any of them
    /// is stored or hashed: too many entries, or a value over its length limit.
    static func checkBounds(_ parameters: [String: String], member: String) throws {
        guard parameters.count <= maximumCount else {
            throw CognitoError.invalidParameter("\(member) has more than \(maximumCount) entries.")
        }
        for (name, value) in parameters {
            let limit = maximumLengths[name] ?? maximumValueLength
            guard name.count <= 256, value.count <= limit else {
                throw CognitoError.invalidParameter(
                    "1 validation error detected: Value at '\(member).\(name.prefix(64))' failed to satisfy constraint: "
                        + "Member must have length less than or equal to \(limit)")
            }
        }
    }

    static func require(_ name: String, in parameters: [String: String]) throws -> String {
        guard let value = parameters[name], !value.isEmpty else {
            throw CognitoError.invalidParameter("Missing required parameter \(name)")
        }
        return value
    }
}
