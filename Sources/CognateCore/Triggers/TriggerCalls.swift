import CognateProtocol
import Foundation

/// The pool's Lambda triggers as the use cases call them, with Cognito's events.
struct TriggerCalls: Sendable {
    let time: any TimeSource
    let triggers: Triggers
}

/// What a PreSignUp function decided for a new user.
struct PreSignUpVerdict: Sendable {
    var autoConfirmUser = false
    var autoVerifyEmail = false
    var autoVerifyPhone = false
}

extension TriggerCalls {
    /// PreSignUp: the function may refuse the new user (UserLambdaValidationException with its
    /// message), or confirm them and verify their addresses at once (SignUp only; Cognito
    /// ignores those answers for AdminCreateUser).
    func runPreSignUp(_ source: String, pool: PoolRecord, clientId: String?, username: String,
                      attributes: [String: String], validationData: [AttributeType]?,
                      clientMetadata: [String: String]?) async throws -> PreSignUpVerdict {
        var validation: [String: String] = [:]
        for item in validationData ?? [] { validation[item.name] = item.value ?? "" }
        guard let response = try await triggers.invoke(
            .preSignUp, source: source, pool: pool, clientId: clientId, userName: username,
            request: [
                "userAttributes": Triggers.strings(attributes),
                "validationData": Triggers.strings(validation),
                "clientMetadata": Triggers.strings(clientMetadata),
            ], now: time.now)
        else { return PreSignUpVerdict() }
        var verdict = PreSignUpVerdict(
            autoConfirmUser: try Self.flag(response["autoConfirmUser"]),
            autoVerifyEmail: try Self.flag(response["autoVerifyEmail"]),
            autoVerifyPhone: try Self.flag(response["autoVerifyPhone"]))
        // Cognito refuses to verify an address the user does not have.
        if verdict.autoVerifyEmail && attributes["email"] == nil { throw Triggers.unrecognizable }
        if verdict.autoVerifyPhone && attributes["phone_number"] == nil { throw Triggers.unrecognizable }
        if source != "PreSignUp_SignUp" { verdict = PreSignUpVerdict() }
        return verdict
    }

    /// PostConfirmation, after the confirmation committed: a refusal reaches the caller while
    /// the user stays confirmed, as in Cognito.
    func runPostConfirmation(_ source: String, user: UserRecord, pool: PoolRecord, clientId: String?,
                             clientMetadata: [String: String]?) async throws {
        _ = try await triggers.invoke(
            .postConfirmation, source: source, pool: pool, clientId: clientId, userName: user.username,
            request: ["userAttributes": Triggers.userAttributes(user), "clientMetadata": Triggers.strings(clientMetadata)],
            now: time.now)
    }

    /// PreAuthentication, before the password is checked: the function may refuse the sign-in.
    /// With PreventUserExistenceErrors an unknown name is sent too, with `userNotFound`.
    func runPreAuthentication(user: UserRecord?, typed: String, pool: PoolRecord, client: ClientRecord,
                              clientMetadata: [String: String]?) async throws {
        guard triggers.isConfigured(.preAuthentication, pool: pool) else { return }
        var request: [String: JSONValue] = [
            "userAttributes": user.map(Triggers.userAttributes) ?? .object([:]),
            "validationData": Triggers.strings(clientMetadata),
        ]
        if user == nil { request["userNotFound"] = .bool(true) }
        _ = try await triggers.invoke(
            .preAuthentication, source: "PreAuthentication_Authentication", pool: pool, clientId: client.clientId,
            userName: user?.username ?? typed, request: request, now: time.now)
    }

    /// PostAuthentication, once the password (or challenge) succeeded and before tokens are
    /// returned: a refusal fails the sign-in.
    func runPostAuthentication(user: UserRecord, pool: PoolRecord, client: ClientRecord,
                               clientMetadata: [String: String]?) async throws {
        _ = try await triggers.invoke(
            .postAuthentication, source: "PostAuthentication_Authentication", pool: pool, clientId: client.clientId,
            userName: user.username,
            request: [
                "userAttributes": Triggers.userAttributes(user), "newDeviceUsed": .bool(false),
                "clientMetadata": Triggers.strings(clientMetadata),
            ], now: time.now)
    }

    /// A Boolean member of a response: absent or null is false; anything but a Boolean is
    /// output Cognito does not recognize.
    static func flag(_ value: JSONValue?) throws -> Bool {
        switch value {
        case nil, .null?: return false
        case .bool(let flag)?: return flag
        default: throw Triggers.unrecognizable
        }
    }
}

extension TriggerCalls {
    /// PreTokenGeneration, before tokens are signed: what the function changes in them (nil
    /// when the pool has no such function). `source`: TokenGeneration_Authentication,
    /// _NewPasswordChallenge or _RefreshTokens.
    func runPreTokenGeneration(_ source: String, user: UserRecord, groups: [GroupRecord], pool: PoolRecord,
                               client: ClientRecord, clientMetadata: [String: String]?) async throws -> ClaimOverrides? {
        guard triggers.isConfigured(.preTokenGeneration, pool: pool) else { return nil }
        let version = pool.settings.lambdaConfig?.preTokenGenerationConfig?.lambdaVersion ?? .v10
        let roles = TokenIssuer.roleClaims(groups)
        let groupConfiguration: [String: JSONValue] = [
            "groupsToOverride": .array(groups.map { .string($0.name) }),
            "iamRolesToOverride": roles["cognito:roles"] ?? .array([]),
            "preferredRole": roles["cognito:preferred_role"] ?? .null,
        ]
        var request: [String: JSONValue] = [
            "userAttributes": Triggers.userAttributes(user),
            "groupConfiguration": .object(groupConfiguration),
            "clientMetadata": Triggers.strings(clientMetadata),
        ]
        let version2 = version != .v10
        if version2 { request["scopes"] = .array(["aws.cognito.signin.user.admin"]) }
        guard let response = try await triggers.invoke(
            .preTokenGeneration, source: source, pool: pool, clientId: client.clientId, userName: user.username,
            request: request, version: version == .v30 ? "3" : version2 ? "2" : "1", now: time.now)
        else { return nil }
        return try ClaimOverrides(response: response, version2: version2)
    }
}
