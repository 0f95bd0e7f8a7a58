import CognateProtocol
import Foundation

/// What a pool's CustomRegistration function decided for a step.
enum CustomRegistrationDecision: Sendable, Equatable {
    case fail
    /// Ask the app: `data` goes to it, `privateParameters` only to the function's next call.
    case challenge(data: String?, privateParameters: [String: String])
    /// Create the account (`username`: nil for one the pool chooses) and sign the user in;
    /// `customInformation` goes back to the app.
    case createUser(username: String?, attributes: [String: String], customInformation: String?)
}

/// The pool's CustomRegistration function (Cognate's own trigger, docs/triggers.md "Custom
/// registration"), called as the Lambda triggers are: a signed webhook with an event in
/// Cognito's shape.
///
/// Contract: the event's `request` holds the app's `data` for this step, the earlier `session`
/// rounds (`challengeData` and `answer`), the last challenge's `privateChallengeParameters`
/// and the `clientMetadata`; `triggerSource` is `CustomRegistration_Start` for the first step,
/// `CustomRegistration_Respond` after. The `response` says `failRegistration`, or `createUser`
/// (with `username`, `userAttributes`, `customInformation`), or asks another challenge
/// (`challengeData`, a string, and `privateChallengeParameters`). Anything else is output
/// Cognito would not recognize (InvalidLambdaResponseException).
struct CustomRegistrationFunction: Sendable {
    let time: any TimeSource
    let triggers: Triggers

    func decide(_ state: CustomRegistrationState, data: String?, pool: PoolRecord, client: ClientRecord,
                clientMetadata: [String: String]?) async throws -> CustomRegistrationDecision {
        let rounds: [JSONValue] = state.rounds.map { round in
            .object([
                "challengeData": round.challengeData.map(JSONValue.string) ?? .null,
                "answer": round.answer.map(JSONValue.string) ?? .null,
            ])
        }
        let request: [String: JSONValue] = [
            "data": data.map(JSONValue.string) ?? .null,
            "session": .array(rounds),
            "privateChallengeParameters": Triggers.strings(state.privateParameters),
            "clientMetadata": Triggers.strings(clientMetadata),
        ]
        guard let response = try await triggers.invoke(
            .customRegistration, source: state.rounds.isEmpty ? "CustomRegistration_Start" : "CustomRegistration_Respond",
            pool: pool, clientId: client.clientId, userName: nil, request: request, now: time.now)
        else { throw CustomRegistration.notConfigured }
        if try TriggerCalls.flag(response["failRegistration"]) { return .fail }
        if try TriggerCalls.flag(response["createUser"]) {
            return .createUser(
                username: try Self.text(response["username"]),
                attributes: try TriggerCalls.stringMap(response["userAttributes"]),
                customInformation: try Self.text(response["customInformation"]))
        }
        guard let challengeData = try Self.text(response["challengeData"]) else { throw Triggers.unrecognizable }
        return .challenge(
            data: challengeData, privateParameters: try TriggerCalls.stringMap(response["privateChallengeParameters"]))
    }

    /// A text member of the response (absent or null: nil), at most as long as an app's data.
    private static func text(_ value: JSONValue?) throws -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)? where text.unicodeScalars.count <= CustomRegistration.maximumData: return text
        default: throw Triggers.unrecognizable
        }
    }
}
