import Foundation

/// A sign-in in progress between two steps (a challenge was sent, its answer is awaited),
/// kept in the store so any node can continue it.
public struct AuthSessionRecord: Sendable, Equatable {
    /// SHA-256 (hex) of the opaque token the client holds (`Session` or `SECRET_BLOCK`).
    public var tokenHash: String
    public var poolId: String
    public var clientId: String
    /// The user signing in; nil for the decoy sessions of unknown users
    /// (PreventUserExistenceErrors), which always fail.
    public var userSub: String?
    /// The challenge whose answer this session awaits.
    public var challenge: String
    /// Step-specific state (JSON), e.g. the server's SRP secret.
    public var state: String
    public var createdAt: Date
    public var expiresAt: Date

    public init(tokenHash: String, poolId: String, clientId: String, userSub: String?, challenge: String, state: String,
                createdAt: Date, expiresAt: Date) {
        self.tokenHash = tokenHash
        self.poolId = poolId
        self.clientId = clientId
        self.userSub = userSub
        self.challenge = challenge
        self.state = state
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

public protocol AuthSessionRepository: Sendable {
    /// One statement.
    func insertAuthSession(_ session: AuthSessionRecord) async throws
    func authSession(tokenHash: String) async throws -> AuthSessionRecord?
    /// Deletes the session and tells whether it was there: of concurrent answers using one
    /// session, exactly one gets `true`.
    func consumeAuthSession(tokenHash: String) async throws -> Bool
}

/// Failed password attempts of a sign-in subject and the lockout they caused.
public struct SignInLockout: Sendable, Equatable {
    public var failures: Int
    public var lockedUntil: Date?

    public init(failures: Int, lockedUntil: Date?) {
        self.failures = failures
        self.lockedUntil = lockedUntil
    }
}

/// A user's standing for a password check, read in one statement: before the verdict with the
/// user (`userForSignIn`), and again under the user's lock when the check is settled there
/// (`signInStanding`). What the verdict and a right password's tokens need.
public struct SignInStanding: Sendable, Equatable {
    /// The user's failure record, as it was before this attempt.
    public var lockout: SignInLockout?
    /// The user's groups, in token order.
    public var groups: [GroupRecord]

    public init(lockout: SignInLockout?, groups: [GroupRecord]) {
        self.lockout = lockout
        self.groups = groups
    }
}

/// Failed sign-ins per subject: a user's `sub`, or — for a name that is no user, under
/// PreventUserExistenceErrors — a pseudonym of that name, so unknown names are throttled
/// exactly like real users. Records of subjects without failures for a day are swept.
public protocol SignInLockoutRepository: Sendable {
    func signInLockout(poolId: String, subject: String) async throws -> SignInLockout?
    /// The failure record and the groups of the user `sub`, in one statement (none of either
    /// without the user). Read it after locking the user, in a statement of its own: under READ
    /// COMMITTED a statement's snapshot is taken before it waits for a lock, so a failure record
    /// joined to the locked read could miss the one a concurrent attempt just committed.
    func signInStanding(poolId: String, sub: String) async throws -> SignInStanding
    /// Adds one failure atomically (concurrent failures are all counted) and returns the count.
    func recordSignInFailure(poolId: String, subject: String, at date: Date) async throws -> Int
    /// Locks the subject out until `date`, unless an existing lockout lasts longer.
    func extendSignInLockout(poolId: String, subject: String, until date: Date) async throws
    func clearSignInLockout(poolId: String, subject: String) async throws
}
