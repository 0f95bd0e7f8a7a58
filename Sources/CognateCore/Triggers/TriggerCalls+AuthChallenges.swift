import CognateProtocol
import Foundation

/// What DefineAuthChallenge decided for a CUSTOM_AUTH sign-in.
enum CustomAuthDecision: Sendable, Equatable {
    case issueTokens
    case fail
    case challenge(ChallengeNameType)
}

/// A challenge CreateAuthChallenge made: what the client sees, what only the verifier sees,
/// and a name for it in later steps' `session`.
struct CreatedAuthChallenge: Sendable {
    var publicParameters: [String: String]
    var privateParameters: [String: String]
    var metadata: String?
}

extension TriggerCalls {
    /// DefineAuthChallenge: `failAuthentication` wins over `issueTokens`; otherwise it must
    /// name the next challenge.
    func runDefineAuthChallenge(_ state: CustomAuthSessionState, user: UserRecord?, pool: PoolRecord,
                                client: ClientRecord, clientMetadata: [String: String]?) async throws -> CustomAuthDecision {
        let request = challengeRequest(state, user: user, client: client, clientMetadata: clientMetadata)
        guard let response = try await triggers.invoke(
            .defineAuthChallenge, source: "DefineAuthChallenge_Authentication", pool: pool, clientId: client.clientId,
            userName: state.username, request: request, now: time.now)
        else { throw SignIn.customAuthNotConfigured }
        if try Self.flag(response["failAuthentication"]) { return .fail }
        if try Self.flag(response["issueTokens"]) { return .issueTokens }
        guard case .string(let name)? = response["challengeName"], !name.isEmpty else { throw Triggers.unrecognizable }
        return .challenge(ChallengeNameType(rawValue: name))
    }

    /// CreateAuthChallenge for the CUSTOM_CHALLENGE DefineAuthChallenge asked for.
    func runCreateAuthChallenge(_ state: CustomAuthSessionState, user: UserRecord?, pool: PoolRecord,
                                client: ClientRecord, clientMetadata: [String: String]?) async throws -> CreatedAuthChallenge {
        var request = challengeRequest(state, user: user, client: client, clientMetadata: clientMetadata)
        request["challengeName"] = .string(ChallengeNameType.customChallenge.rawValue)
        guard let response = try await triggers.invoke(
            .createAuthChallenge, source: "CreateAuthChallenge_Authentication", pool: pool, clientId: client.clientId,
            userName: state.username, request: request, now: time.now)
        else { throw SignIn.customAuthNotConfigured }
        let metadata: String?
        switch response["challengeMetadata"] {
        case nil, .null?: metadata = nil
        case .string(let text)?: metadata = text
        default: throw Triggers.unrecognizable
        }
        return CreatedAuthChallenge(
            publicParameters: try Self.stringMap(response["publicChallengeParameters"]),
            privateParameters: try Self.stringMap(response["privateChallengeParameters"]), metadata: metadata)
    }

    /// VerifyAuthChallengeResponse: whether `answer` is right for the pending challenge.
    func runVerifyAuthChallengeResponse(_ state: CustomAuthSessionState, answer: String, user: UserRecord?,
                                        pool: PoolRecord, client: ClientRecord,
                                        clientMetadata: [String: String]?) async throws -> Bool {
        var request: [String: JSONValue] = [
            "userAttributes": user.map(Triggers.userAttributes) ?? .object([:]),
            "privateChallengeParameters": Triggers.strings(state.privateParameters),
            "challengeAnswer": .string(answer),
            "clientMetadata": Triggers.strings(clientMetadata),
        ]
        if client.preventsUserExistenceErrors { request["userNotFound"] = .bool(state.userNotFound) }
        guard let response = try await triggers.invoke(
            .verifyAuthChallengeResponse, source: "VerifyAuthChallengeResponse_Authentication", pool: pool,
            clientId: client.clientId, userName: state.username, request: request, now: time.now)
        else { throw SignIn.customAuthNotConfigured }
        return try Self.flag(response["answerCorrect"])
    }

    /// The request Define and Create share: the user, the steps so far, the client's metadata,
    /// and — for clients that hide which users exist — whether the user exists.
    private func challengeRequest(_ state: CustomAuthSessionState, user: UserRecord?, client: ClientRecord,
                                  clientMetadata: [String: String]?) -> [String: JSONValue] {
        let session: [JSONValue] = state.steps.map { step in
            .object([
                "challengeName": .string(step.challengeName),
                "challengeResult": .bool(step.challengeResult),
                "challengeMetadata": step.challengeMetadata.map(JSONValue.string) ?? .null,
            ])
        }
        var request: [String: JSONValue] = [
            "userAttributes": user.map(Triggers.userAttributes) ?? .object([:]),
            "session": .array(session),
            "clientMetadata": Triggers.strings(clientMetadata),
        ]
        if client.preventsUserExistenceErrors { request["userNotFound"] = .bool(state.userNotFound) }
        return request
    }

    /// A map of strings in a function's response: absent or null is empty; numbers and
    /// Booleans are taken as their text (as Cognito's deserializer does); anything else is
    /// output Cognito does not recognize.
    static func stringMap(_ value: JSONValue?) throws -> [String: String] {
        guard let value, value != .null else { return [:] }
        guard case .object(let object) = value else { throw Triggers.unrecognizable }
        var map: [String: String] = [:]
        for (key, member) in object {
            switch member {
            case .null: continue
            case .string(let text): map[key] = text
            case .bool(let flag): map[key] = flag ? "true" : "false"
            case .number(let number):
                map[key] = number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            case .array, .object: throw Triggers.unrecognizable
            }
        }
        return map
    }
}
