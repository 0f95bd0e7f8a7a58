import CognateProtocol

/// What a CUSTOM_AUTH sign-in remembers between its steps (kept in its auth session, so any
/// node continues it, and gone when the session expires): the challenges so far with their
/// results — the `session` DefineAuthChallenge is shown — and the challenge now awaiting an
/// answer, with what CreateAuthChallenge kept from the client.
///
/// Contract: `privateParameters` (often the expected answer) never leave the server except
/// to VerifyAuthChallengeResponse.
struct CustomAuthSessionState: Codable, Sendable {
    struct Step: Codable, Sendable {
        var challengeName: String
        var challengeResult: Bool
        var challengeMetadata: String?
    }

    /// The user's username, or the name typed for one that does not exist (only with
    /// PreventUserExistenceErrors; the functions are told `userNotFound`).
    var username: String
    var userNotFound: Bool
    var steps: [Step] = []
    /// SRP_A of a sign-in started with `CHALLENGE_NAME=SRP_A`, until DefineAuthChallenge asks
    /// for the PASSWORD_VERIFIER it belongs to.
    var clientPublic: String?
    var privateParameters: [String: String]?
    var challengeMetadata: String?

    /// A sign-in that has gone through this many challenges fails, whatever the functions say.
    static let maximumSteps = 16

    /// The state once `challenge` was answered: the step recorded, the answered challenge gone.
    func after(_ challenge: ChallengeNameType, correct: Bool) -> Self {
        var next = self
        next.steps.append(Step(challengeName: challenge.rawValue, challengeResult: correct, challengeMetadata: challengeMetadata))
        next.privateParameters = nil
        next.challengeMetadata = nil
        return next
    }
}
