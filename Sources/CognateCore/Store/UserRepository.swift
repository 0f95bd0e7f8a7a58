import CognateProtocol
import Foundation

/// A user of a pool.
public struct UserRecord: Sendable, Equatable {
    public var poolId: String
    /// The immutable UUID (`sub`).
    public var sub: String
    /// The internal username (`cognito:username`); equals `sub` in pools that sign in with
    /// email or phone number as username.
    public var username: String
    /// `username` as looked up: lower-cased when the pool is case-insensitive.
    public var usernameKey: String
    public var status: UserStatusType
    public var enabled: Bool
    public var createdAt: Date
    public var updatedAt: Date
    /// The password as an SRP verifier; nil for users without a password.
    public var password: StoredPassword?
    public var passwordUpdatedAt: Date?
    /// Attributes by name (`email`, `email_verified`, `custom:tier` …), without `sub`.
    public var attributes: [String: String]

    public init(poolId: String, sub: String, username: String, usernameKey: String, status: UserStatusType,
                enabled: Bool, createdAt: Date, updatedAt: Date, password: StoredPassword?,
                passwordUpdatedAt: Date?, attributes: [String: String]) {
        self.poolId = poolId
        self.sub = sub
        self.username = username
        self.usernameKey = usernameKey
        self.status = status
        self.enabled = enabled
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.password = password
        self.passwordUpdatedAt = passwordUpdatedAt
        self.attributes = attributes
    }
}

/// A password as Cognito's SRP needs it: the salt and `v = g^x mod N` (both big-endian).
public struct StoredPassword: Sendable, Equatable, Codable {
    public var salt: [UInt8]
    public var verifier: [UInt8]

    public init(salt: [UInt8], verifier: [UInt8]) {
        self.salt = salt
        self.verifier = verifier
    }
}

/// A condition of ListUsers, already parsed and checked.
public struct UserFilter: Sendable, Equatable {
    public enum Field: Sendable, Equatable {
        /// `key`: the value as the pool keys usernames (``SignInNames/usernameKey(_:)``), so the
        /// store can search its username index; the match is on the username itself.
        case username(key: String)
        case sub
        case status          // cognito:user_status
        /// "status": `value` is "Enabled", "Disabled", "*" (either) or "" (neither).
        case enabled
        case attribute(String)
    }

    public enum Match: Sendable, Equatable {
        case equals
        case prefix
    }

    public var field: Field
    public var match: Match
    public var value: String
    /// Compare case-insensitively (Cognito does for most attributes).
    public var caseInsensitive: Bool

    public init(field: Field, match: Match, value: String, caseInsensitive: Bool) {
        self.field = field
        self.match = match
        self.value = value
        self.caseInsensitive = caseInsensitive
    }
}

public protocol UserRepository: Sendable {
    /// Throws `StoreError.conflict(.username)` when the pool has the username key already:
    /// from this call, or — where the database sends the insert together with what follows it
    /// (PostgreSQL) — from a later call of the same write or from the write itself. Callers
    /// handle it around `Store.write`.
    func insertUser(_ user: UserRecord) async throws

    // Lookups. With `forUpdate`, the user's row stays locked until the transaction ends, so
    // concurrent read-modify-writes of one user serialize (a row lock where the database has
    // them; SQLite's write transactions are exclusive anyway).
    func user(poolId: String, usernameKey: String, forUpdate: Bool) async throws -> UserRecord?
    func user(poolId: String, sub: String, forUpdate: Bool) async throws -> UserRecord?
    /// The user owning a sign-in name (an email or phone used as username, or a verified alias),
    /// stored as `kind:normalized value`.
    func user(poolId: String, signInName: String, forUpdate: Bool) async throws -> UserRecord?
    /// The same lookups, unlocked, with the user's standing (failure record and groups) in the
    /// same statement: what a password check reads before its verdict, and all that a right
    /// password settled without the user's lock needs (`insertTokenFamily(_:ifSignInStands:)`).
    func userForSignIn(poolId: String, usernameKey: String) async throws -> (user: UserRecord, standing: SignInStanding)?
    func userForSignIn(poolId: String, signInName: String) async throws -> (user: UserRecord, standing: SignInStanding)?
    func userForSignIn(poolId: String, sub: String) async throws -> (user: UserRecord, standing: SignInStanding)?

    /// Writes every field and replaces the attributes.
    func updateUser(_ user: UserRecord) async throws
    /// Deletes the user with its codes, sign-in names and token families.
    func deleteUser(poolId: String, sub: String) async throws
    /// Replaces the user's sign-in names; `StoreError.conflict(.signInName)` when one is taken.
    func setSignInNames(poolId: String, sub: String, names: [String]) async throws
    /// Gives a user who holds none yet (one just inserted) its sign-in names, without reading
    /// the current ones; `StoreError.conflict(.signInName)` when one is taken.
    func addSignInNames(poolId: String, sub: String, names: [String]) async throws

    /// Users ordered by username key, starting after `after`, matching `filter` if given.
    func listUsers(poolId: String, filter: UserFilter?, after: String?, limit: Int) async throws -> Page<UserRecord>
    func countUsers(poolId: String) async throws -> Int

    /// The user's latest passwords, newest first (for PasswordHistorySize).
    func passwordHistory(poolId: String, sub: String, limit: Int) async throws -> [StoredPassword]
    /// Records a password the user set and forgets all but the newest `keep`.
    func appendPasswordHistory(poolId: String, sub: String, password: StoredPassword, at date: Date, keep: Int) async throws
}

extension UserRepository {
    public func user(poolId: String, usernameKey: String) async throws -> UserRecord? {
        try await user(poolId: poolId, usernameKey: usernameKey, forUpdate: false)
    }

    public func user(poolId: String, sub: String) async throws -> UserRecord? {
        try await user(poolId: poolId, sub: sub, forUpdate: false)
    }

    public func user(poolId: String, signInName: String) async throws -> UserRecord? {
        try await user(poolId: poolId, signInName: signInName, forUpdate: false)
    }
}
