import CognateProtocol
import Foundation

struct RequestAllowances: Sendable {
    let store: any Store
    let time: any TimeSource
    let configuration: CoreConfiguration
}

/// Limits on what unauthenticated callers can make the server do, shaped like Cognito's
/// request-rate quota categories. Counted in the store, so they hold across nodes; 0 turns a
/// limit off.
public struct RateLimitSettings: Sendable {
    /// SignUp, ConfirmSignUp and ResendConfirmationCode calls per app client and client address
    /// per minute (Cognito's UserCreation category).
    public var userCreationPerMinute: Int
    /// ForgotPassword and ConfirmForgotPassword calls per app client and client address per
    /// minute (Cognito's UserAccountRecovery category).
    public var accountRecoveryPerMinute: Int
    /// Codes sent to one email address or phone number per pool per hour, whoever asks.
    public var messagesPerDestinationPerHour: Int
    /// Hosted sign-in steps stored (a submitted page's next page, a federated sign-in's wait
    /// for its provider) per app client and client address per minute.
    public var hostedFlowsPerMinute: Int

    public init(userCreationPerMinute: Int = 60, accountRecoveryPerMinute: Int = 30, messagesPerDestinationPerHour: Int = 10,
                hostedFlowsPerMinute: Int = 120) {
        self.userCreationPerMinute = userCreationPerMinute
        self.accountRecoveryPerMinute = accountRecoveryPerMinute
        self.messagesPerDestinationPerHour = messagesPerDestinationPerHour
        self.hostedFlowsPerMinute = hostedFlowsPerMinute
    }

    /// No limits (benchmarks, tests that create many users from one address).
    public static let off = RateLimitSettings(
        userCreationPerMinute: 0, accountRecoveryPerMinute: 0, messagesPerDestinationPerHour: 0, hostedFlowsPerMinute: 0)
}

/// A request-rate category (Cognito's names).
enum RequestCategory: String {
    case userCreation = "UserCreation"
    case accountRecovery = "UserAccountRecovery"
    /// Cognate's own: steps of hosted and federated sign-ins kept in the store.
    case hostedFlows = "HostedSignIn"
}

extension RequestAllowances {
    /// Counts this request against its category's limit for the app client and the caller's
    /// address before any of its work, in a write of its own: TooManyRequestsException past the
    /// limit. A request the work then refuses (a name that exists, a weak password, a wrong
    /// code, a user who does not exist) has counted as much as one that succeeds, so refusals
    /// cannot be used to probe at full speed. (The window is fixed: counting the refused
    /// requests past the limit changes no answer.)
    func countRequest(_ category: RequestCategory, client: ClientRecord) async throws {
        guard let (key, limit) = requestCounter(category, client: client) else { return }
        let window = window(of: 60)
        let count = try await store.incrementCounter(key: key, windowStart: window)
        if count > limit { throw Self.tooManyRequests(category) }
    }

    /// Counts a request against its category's limit in `transaction` (for work that stores
    /// something per request, such as a hosted page's flow): TooManyRequestsException past the
    /// limit, and the transaction rolls back.
    func consumeRequestAllowance(_ category: RequestCategory, client: ClientRecord,
                                 in transaction: any StoreTransaction) async throws {
        guard let (key, limit) = requestCounter(category, client: client) else { return }
        let count = try await transaction.incrementCounter(key: key, windowStart: window(of: 60))
        if count > limit { throw Self.tooManyRequests(category) }
    }

    /// The counter of `category` for the client and the caller's address (an IPv6 address by
    /// its /64, ``AddressBlock``), and its limit; nil
    /// when the limit is off or the caller's address unknown (outside a request).
    private func requestCounter(_ category: RequestCategory, client: ClientRecord) -> (key: String, limit: Int)? {
        let limit = switch category {
        case .userCreation: configuration.rateLimits.userCreationPerMinute
        case .accountRecovery: configuration.rateLimits.accountRecoveryPerMinute
        case .hostedFlows: configuration.rateLimits.hostedFlowsPerMinute
        }
        guard limit > 0, let address = RequestOrigin.clientAddress else { return nil }
        return ("rate:\(category.rawValue):\(client.clientId):\(AddressBlock.of(address))", limit)
    }

    private static func tooManyRequests(_ category: RequestCategory) -> CognitoError {
        CognitoError(.tooManyRequests, "Too many \(category.rawValue) requests from this address; try again later.")
    }

    /// Counts a message to `destination` against the pool's hourly limit per address:
    /// LimitExceededException past it, so no one can flood an inbox or a phone through Cognate.
    func consumeMessageAllowance(to destination: CodeDestination, pool: PoolRecord,
                                 in transaction: any StoreTransaction) async throws {
        let limit = configuration.rateLimits.messagesPerDestinationPerHour
        guard limit > 0 else { return }
        let count = try await transaction.incrementCounter(
            key: "messages:\(pool.id):\(destination.address.lowercased())", windowStart: window(of: 3600))
        if count > limit {
            throw CognitoError(.limitExceeded, "Exceeded the message limit for \(destination.masked); try again later.")
        }
    }

    /// The start of the current fixed window of `seconds`.
    func window(of seconds: TimeInterval) -> Date {
        let now = time.now.timeIntervalSince1970
        return Date(timeIntervalSince1970: now - now.truncatingRemainder(dividingBy: seconds))
    }
}

extension RequestAllowances {
    /// Fixed-window per-subject limit (e.g. code requests per hour): LimitExceededException
    /// when the count in the current hour passes `limit`. The subject is a user's sub, or the
    /// decoy subject of a name that is no user (so unknown names hit the same limit).
    func consumeHourlyAllowance(_ name: String, subject: String, pool: PoolRecord, limit: Int,
                                _ transaction: any StoreTransaction) async throws {
        let count = try await transaction.incrementCounter(key: "\(name):\(pool.id):\(subject)", windowStart: window(of: 3600))
        if count > limit { throw CognitoError.attemptLimitExceeded }
    }
}
