import CognateProtocol
import Foundation

/// Throttling of wrong passwords, as Cognito does it: after five failed sign-ins the user is
/// locked out for one second, the lockout doubling with each further failure up to 15 minutes;
/// while locked out every attempt fails with "Password attempts exceeded", right password or
/// not. A successful sign-in clears the count. The state is in the store, so it holds across
/// nodes and restarts.
struct SignInThrottle: Sendable {
    let store: any Store
    let time: any TimeSource

    static let freeFailures = 5
    static let maximumLockout: TimeInterval = 15 * 60
    static let attemptsExceeded = CognitoError.notAuthorized("Password attempts exceeded")

    static func lockout(afterFailures failures: Int) -> TimeInterval? {
        guard failures >= freeFailures else { return nil }
        let exponent = min(failures - freeFailures, 20)
        return min(pow(2, Double(exponent)), maximumLockout)
    }
}

extension SignInThrottle {
    /// Refuses the attempt while the subject (a user's sub, or a decoy subject) is locked out;
    /// returns its failure record.
    @discardableResult
    func checkNotLockedOut(_ subject: String, poolId: String, in transaction: any StoreTransaction) async throws
        -> SignInLockout?
    {
        let lockout = try await transaction.signInLockout(poolId: poolId, subject: subject)
        try refuseWhileLockedOut(lockout)
        return lockout
    }

    /// Refuses the attempt while `lockout` (a subject's failure record) lasts.
    func refuseWhileLockedOut(_ lockout: SignInLockout?) throws {
        if let lockedUntil = lockout?.lockedUntil, time.now < lockedUntil { throw SignInThrottle.attemptsExceeded }
    }

    /// Counts a wrong password (atomically, so concurrent failures on any node all count) and
    /// starts or extends the lockout.
    func recordFailedSignIn(_ subject: String, poolId: String, in transaction: any StoreTransaction) async throws {
        let now = time.now
        let failures = try await transaction.recordSignInFailure(poolId: poolId, subject: subject, at: now)
        if let lockout = SignInThrottle.lockout(afterFailures: failures) {
            try await transaction.extendSignInLockout(poolId: poolId, subject: subject, until: now + lockout)
            ServiceMetrics.lockout()
        }
    }

    /// A failed sign-in of a name that is no user, settled as a wrong password of a real user
    /// is (`settlePasswordCheck`): the same statements under the same lockout rules — the
    /// lock, the failure record (where a real user's comes with its groups), the failure
    /// counted — so neither the answer nor its timing tells the two apart. Always throws.
    func settleDecoySignIn(_ subject: String, pool: PoolRecord, in transaction: any StoreTransaction) async throws
        -> FirstFactorResult
    {
        _ = try await transaction.user(poolId: pool.id, sub: subject, forUpdate: true)  // the lock a real user takes
        try await checkNotLockedOut(subject, poolId: pool.id, in: transaction)
        try await recordFailedSignIn(subject, poolId: pool.id, in: transaction)
        throw CommitAndFail(.incorrectCredentials)
    }
}
