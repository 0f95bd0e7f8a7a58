import CognateProtocol
import Foundation

/// Runs a pool's Lambda triggers as webhooks: builds Cognito's event, finds the webhook bound
/// to the function's ARN (`cognate functions put`), calls it, and reads the `response` back.
///
/// Contract: a pool without a function for the trigger costs nothing (nil, no call). Otherwise
/// every failure is the Cognito error for it — never a 500: the function refused →
/// UserLambdaValidationException "`<Trigger>` failed with error `<message>`."; no answer, a
/// timeout, an unbound ARN → UnexpectedLambdaException "`<Trigger>` invocation failed due to
/// error `<reason>`."; an answer that is not JSON, or whose `response` is not an object →
/// InvalidLambdaResponseException. Triggers are never called inside a database transaction.
final class Triggers: Sendable {
    let store: any Store
    let invoker: (any FunctionInvoker)?
    let region: String
    let bindings: FunctionBindingCache

    init(store: any Store, invoker: (any FunctionInvoker)?, region: String, cacheTTL: TimeInterval) {
        self.store = store
        self.invoker = invoker
        self.region = region
        bindings = FunctionBindingCache(ttl: cacheTTL)
    }

    func isConfigured(_ trigger: Trigger, pool: PoolRecord) -> Bool { trigger.arn(in: pool) != nil }

    /// Invokes the pool's function for `trigger` with `request`; returns the `response` the
    /// function filled in ([:] when it left it empty), or nil when the pool has no such function.
    func invoke(_ trigger: Trigger, source: String, pool: PoolRecord, clientId: String?, userName: String?,
                request: [String: JSONValue], version: String = "1", now: Date) async throws -> [String: JSONValue]? {
        guard let arn = trigger.arn(in: pool) else { return nil }
        var event: [String: JSONValue] = [
            "version": .string(version),
            "triggerSource": .string(source),
            "region": .string(region),
            "userPoolId": .string(pool.id),
            "callerContext": .object([
                "awsSdkVersion": "aws-sdk-unknown-unknown",
                "clientId": .string(clientId ?? "CLIENT_ID_NOT_APPLICABLE"),
            ]),
            "request": .object(request),
            "response": .object([:]),
        ]
        if let userName { event["userName"] = .string(userName) }
        guard let invoker,
            let url = try await bindings.url(for: arn, now: now, load: { try await self.store.read { try await $0.function(arn: arn) } })
        else {
            throw CognitoError(.unexpectedLambda, "\(trigger.rawValue) invocation failed due to error ResourceNotFoundException.")
        }
        switch await invoker.invoke(url: url, arn: arn, event: Data(JSONValue.object(event).jsonBytes)) {
        case .refused(let message):
            throw CognitoError(.userLambdaValidation, "\(trigger.rawValue) failed with error \(message).")
        case .failed(let reason):
            throw CognitoError(.unexpectedLambda, "\(trigger.rawValue) invocation failed due to error \(reason).")
        case .returned(let body):
            guard let answer = try? JSONDecoder().decode(JSONValue.self, from: body) else {
                throw CognitoError(.invalidLambdaResponse, "Invalid lambda function output : Invalid JSON")
            }
            guard case .object(let object) = answer else { throw Self.unrecognizable }
            switch object["response"] {
            case nil, .null: return [:]
            case .object(let response): return response
            default: throw Self.unrecognizable
            }
        }
    }

    static let unrecognizable = CognitoError(.invalidLambdaResponse, "Unrecognizable lambda output")

    /// A user as triggers see them: every attribute as a string (verified flags too), with
    /// `sub` and `cognito:user_status`.
    static func userAttributes(_ user: UserRecord) -> JSONValue {
        var attributes = user.attributes.filter { !$0.key.hasPrefix("dev:") }.mapValues(JSONValue.string)
        attributes["sub"] = .string(user.sub)
        attributes["cognito:user_status"] = .string(user.status.rawValue)
        return .object(attributes)
    }

    static func strings(_ map: [String: String]?) -> JSONValue { .object((map ?? [:]).mapValues(JSONValue.string)) }
}

/// Function ARN → webhook URL, per node. Changes apply through the change feed (`functions`
/// topic, about a second) and after `ttl` whatever happens.
final class FunctionBindingCache: @unchecked Sendable {
    private let ttl: TimeInterval
    private let lock = NSLock()
    private var entries: [String: (url: String?, fetchedAt: Date)] = [:]

    init(ttl: TimeInterval) { self.ttl = ttl }

    func url(for arn: String, now: Date, load: () async throws -> FunctionBinding?) async throws -> String? {
        if let entry = lock.withLock({ entries[arn] }), now.timeIntervalSince(entry.fetchedAt) < ttl { return entry.url }
        let url = try await load()?.url
        // ARNs come from pool settings (written by administrators), so misses may be cached.
        lock.withLock { entries[arn] = (url, now) }
        return url
    }

    func forget(_ arn: String) { lock.withLock { entries[arn] = nil } }
}
