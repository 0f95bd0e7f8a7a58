/// What a SELECT_CHALLENGE session remembers: who signs in (the typed name, for a name that
/// is no user: then `decoySubject` is set and every factor fails as a wrong one would) and the
/// device the sign-in came from.
struct ChoiceSessionState: Codable, Sendable {
    var username: String
    var deviceKey: String?
    var decoySubject: String?
}
