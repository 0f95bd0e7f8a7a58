import Foundation

/// What a one-time code proves. One code per user and purpose exists at a time; sending a new
/// one replaces the old.
public enum CodePurpose: Sendable, Hashable, RawRepresentable {
    case signUp
    case forgotPassword
    case verifyAttribute(String)

    public init?(rawValue: String) {
        switch rawValue {
        case "signUp": self = .signUp
        case "forgotPassword": self = .forgotPassword
        default:
            guard rawValue.hasPrefix("verify:") else { return nil }
            self = .verifyAttribute(String(rawValue.dropFirst("verify:".count)))
        }
    }

    public var rawValue: String {
        switch self {
        case .signUp: "signUp"
        case .forgotPassword: "forgotPassword"
        case .verifyAttribute(let name): "verify:\(name)"
        }
    }
}

/// A code as stored: only its keyed hash, never the digits.
public struct CodeRecord: Sendable, Equatable {
    public var poolId: String
    public var userSub: String
    public var purpose: CodePurpose
    public var codeHash: String
    /// Hash of the code this one replaced, so a superseded code is told apart from a wrong one.
    public var previousCodeHash: String?
    /// The attribute the code was delivered to (`email`, `phone_number`), if any.
    public var deliveredTo: String?
    /// For a verification code sent to a new address that replaces the attribute only once
    /// verified (AttributesRequireVerificationBeforeUpdate): that new address.
    public var pendingValue: String?
    public var createdAt: Date
    public var expiresAt: Date
    public var failedAttempts: Int

    public init(poolId: String, userSub: String, purpose: CodePurpose, codeHash: String, previousCodeHash: String? = nil,
                deliveredTo: String?, pendingValue: String? = nil, createdAt: Date, expiresAt: Date,
                failedAttempts: Int = 0) {
        self.poolId = poolId
        self.userSub = userSub
        self.purpose = purpose
        self.codeHash = codeHash
        self.previousCodeHash = previousCodeHash
        self.deliveredTo = deliveredTo
        self.pendingValue = pendingValue
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.failedAttempts = failedAttempts
    }
}

public protocol CodeRepository: Sendable {
    /// Stores the code, replacing any earlier code of the same user and purpose (whose hash
    /// becomes `previousCodeHash`). The earlier code's failed attempts carry over when they
    /// started counting after `keepingFailuresSince` (wrong guesses stay bounded per window,
    /// however many codes are requested); otherwise the count starts again.
    func saveCode(_ code: CodeRecord, keepingFailuresSince: Date) async throws
    /// Codes are found by their user's pool and `sub` together, the key's order: `sub`
    /// alone would be a walk through every code.
    func code(poolId: String, userSub: String, purpose: CodePurpose) async throws -> CodeRecord?
    /// Adds one failed attempt and returns the new count.
    func recordFailedAttempt(poolId: String, userSub: String, purpose: CodePurpose) async throws -> Int
    func deleteCode(poolId: String, userSub: String, purpose: CodePurpose) async throws
}
