import CognateProtocol
import Foundation

/// Throttling of wrong passwords, as Cognito does it: after five failed sign-ins the user is
/// locked out for one second, the lockout doubling with each further failure up to 15 minutes;
/// while locked out every attempt fails with "Password attempts exceeded", right password or
/// not. A successful sign-in clears the count. The state is in the store, so it holds across
/// nodes and restarts.
enum SignInThrottle {
    static let freeFailures = 5
    static let maximumLockout: TimeInterval = 15 * 60
    static let attemptsExceeded = CognitoError.notAuthorized("Password attempts exceeded")

    static func lockout(afterFailures failures: Int) -> TimeInterval? {
        guard failures >= freeFailures else { return nil }
        let exponent = min(failures - freeFailures, 20)
        return min(pow(2, Double(exponent)), maximumLockout)
    }
}

extension IdentityService {
    /// Refuses the attempt while the user is locked out; returns the user's failure record.
    @discardableResult
    func checkNotLockedOut(_ user: UserRecord, in transaction: any StoreTransaction) async throws -> SignInLockout? {
        let lockout = try await transaction.signInLockout(poolId: user.poolId, userSub: user.sub)
        if let lockedUntil = lockout?.lockedUntil, time.now < lockedUntil { throw SignInThrottle.attemptsExceeded }
        return lockout
    }

    /// Counts a wrong password (atomically, so concurrent failures on any node all count) and
    /// starts or extends the lockout.
    func recordFailedSignIn(_ user: UserRecord, in transaction: any StoreTransaction) async throws {
        let failures = try await transaction.recordSignInFailure(poolId: user.poolId, userSub: user.sub)
        if let lockout = SignInThrottle.lockout(afterFailures: failures) {
            try await transaction.extendSignInLockout(poolId: user.poolId, userSub: user.sub, until: time.now + lockout)
        }
    }
}
