/// What a custom registration remembers between its steps, in its stored session: the rounds
/// answered so far and the challenge waiting for an answer.
struct CustomRegistrationState: Codable, Sendable {
    /// One challenge of the function and the app's answer to it.
    struct Round: Codable, Sendable {
        var challengeData: String?
        var answer: String?
    }

    /// Rounds a registration may take before it is refused (as CUSTOM_AUTH's steps are bounded).
    static let maximumRounds = 16
    /// The most text a registration's rounds and private parameters may hold together (each
    /// step sends them all to the function and stores them again).
    static let maximumSize = 65_536

    /// The characters of the rounds and private parameters.
    var size: Int {
        rounds.reduce(0) { $0 + ($1.challengeData?.count ?? 0) + ($1.answer?.count ?? 0) }
            + (pendingChallengeData?.count ?? 0) + privateParameters.reduce(0) { $0 + $1.key.count + $1.value.count }
    }

    var rounds: [Round] = []
    /// The challenge waiting for an answer: what the app was sent, and what only the function
    /// sees again (`privateChallengeParameters`).
    var pendingChallengeData: String?
    var privateParameters: [String: String] = [:]

    /// The state once the pending challenge is answered with `answer`.
    func answered(_ answer: String?) -> CustomRegistrationState {
        var next = self
        next.rounds.append(Round(challengeData: pendingChallengeData, answer: answer))
        next.pendingChallengeData = nil
        return next
    }
}
