import CognateProtocol
import Foundation

/// What `InitiateAuth` and `RespondToAuthChallenge` both answer: tokens or a next challenge.
struct AuthResponse {
    var challengeName: ChallengeNameType?
    var session: String?
    var parameters: [String: String]
    var result: AuthenticationResultType?
    /// The first factors a choice-based sign-in offers (`AvailableChallenges`).
    var available: [ChallengeNameType] = []

    init(_ response: InitiateAuthResponse) {
        challengeName = response.challengeName
        session = response.session
        parameters = response.challengeParameters ?? [:]
        result = response.authenticationResult
        available = response.availableChallenges ?? []
    }

    init(_ response: RespondToAuthChallengeResponse) {
        challengeName = response.challengeName
        session = response.session
        parameters = response.challengeParameters ?? [:]
        result = response.authenticationResult
    }

    /// The sign-in part of a custom registration's answer.
    init(_ response: CustomRegistrationResponse) {
        challengeName = response.challengeName
        session = response.session
        parameters = response.challengeParameters ?? [:]
        result = response.authenticationResult
    }

    /// A challenge parameter holding a JSON string (`requiredAttributes`, `userAttributes`).
    func json<Value: Decodable>(_ name: String, as type: Value.Type) -> Value? {
        parameters[name].flatMap { try? JSONDecoder().decode(Value.self, from: Data($0.utf8)) }
    }
}
