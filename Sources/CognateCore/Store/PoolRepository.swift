import CognateProtocol
import Foundation

/// A user pool: its identity and its configuration as the API describes it.
public struct PoolRecord: Sendable, Equatable {
    public var id: String
    public var name: String
    public var createdAt: Date
    public var updatedAt: Date
    /// The pool's settings in their wire form; `id`, `name`, dates, ARN and counts are filled in
    /// from the record when the pool is described, not stored here.
    public var settings: UserPoolType
    /// The MFA factors SetUserPoolMfaConfig enabled (not part of the described settings).
    public var mfa: PoolMfaSettings
    /// The rules for device PINs (SetUserPoolPinPolicy); nil: the pool offers no PIN sign-in.
    public var pinPolicy: PinPolicy?
    /// SetRiskConfiguration's settings by app client id, "" for the pool-wide one.
    public var riskConfigurations: [String: RiskConfigurationType]
    /// SetLogDeliveryConfiguration's settings; nil: nothing delivered.
    public var logDelivery: [LogConfigurationType]?
    /// SetUserPoolSessionConfiguration's settings; nil: Cognito's defaults (no tracking).
    public var sessions: PoolSessionSettings?
    /// The function custom registrations run through (SetUserPoolCustomRegistration); nil: the
    /// pool offers none.
    public var customRegistration: CustomRegistrationConfiguration?

    public init(id: String, name: String, createdAt: Date, updatedAt: Date, settings: UserPoolType,
                mfa: PoolMfaSettings = PoolMfaSettings(), pinPolicy: PinPolicy? = nil,
                riskConfigurations: [String: RiskConfigurationType] = [:], logDelivery: [LogConfigurationType]? = nil,
                sessions: PoolSessionSettings? = nil, customRegistration: CustomRegistrationConfiguration? = nil) {
        self.sessions = sessions
        self.customRegistration = customRegistration
        self.riskConfigurations = riskConfigurations
        self.logDelivery = logDelivery
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.settings = settings
        self.mfa = mfa
        self.pinPolicy = pinPolicy
    }
}

public protocol PoolRepository: Sendable {
    /// Throws `StoreError.conflict(.pool)` when the id exists.
    func insertPool(_ pool: PoolRecord) async throws
    func pool(id: String) async throws -> PoolRecord?
    func updatePool(_ pool: PoolRecord) async throws
    /// Deletes the pool with its clients, users and everything they own.
    func deletePool(id: String) async throws
    /// Pools ordered by id, starting after `after`.
    func listPools(after: String?, limit: Int) async throws -> Page<PoolRecord>
}
