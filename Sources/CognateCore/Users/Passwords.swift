import CognateProtocol
import Foundation

/// Passwords users choose: the policy, the history, the verifier, and what a change ends.
struct Passwords: Sendable {
    let time: any TimeSource
    let random: any RandomSource
    let authEvents: AuthEventRecorder
    let tokenFamilies: TokenFamilies
}

extension PoolSettings {
    /// A Cognate setting carried as a user pool tag (Cognito has no such setting, and tags
    /// travel through every Cognito client): `"true"` makes a password change or reset end all
    /// of the user's sessions (every refresh token and the access tokens issued from them).
    static let revokeTokensOnPasswordChangeTag = "cognate:RevokeTokensOnPasswordChange"
}

extension Passwords {
    /// Sets a password the user chose (sign-up, new-password challenge, reset, change, admin):
    /// it must meet the policy and differ from the last `PasswordHistorySize` passwords
    /// (PasswordHistoryPolicyViolationException). The caller saves the user.
    func setChosenPassword(_ password: String, on user: inout UserRecord, pool: PoolRecord,
                           in transaction: any StoreTransaction) async throws {
        let policy = pool.settings.policies?.passwordPolicy
        try PasswordRules.check(password, policy: policy)
        try authEvents.checkNotCompromised(password, filter: .passwordChange, pool: pool, clientId: nil)
        let realm = SRPDerivation.poolName(ofPoolId: pool.id)
        let historySize = policy?.passwordHistorySize ?? 0
        if historySize > 0 {
            for old in try await transaction.passwordHistory(poolId: pool.id, sub: user.sub, limit: historySize)
            where SRPServer.matches(secret: password, salt: old.salt, realm: realm, identity: user.username, verifier: old.verifier) {
                throw CognitoError(.passwordHistoryPolicyViolation,
                                   "The password was used previously. Choose a password you have not used before.")
            }
        }
        let stored = makePassword(password, username: user.username, poolId: pool.id)
        user.password = stored
        user.passwordUpdatedAt = time.now
        try await rememberPassword(stored, of: user, pool: pool, in: transaction)
    }

    /// Adds a chosen password to the user's history when the pool keeps one.
    func rememberPassword(_ password: StoredPassword, of user: UserRecord, pool: PoolRecord,
                          in transaction: any StoreTransaction) async throws {
        let historySize = pool.settings.policies?.passwordPolicy?.passwordHistorySize ?? 0
        guard historySize > 0 else { return }
        try await transaction.appendPasswordHistory(
            poolId: pool.id, sub: user.sub, password: password, at: time.now, keep: historySize)
    }

    /// After a user changed or reset their own password: no PIN registered on their devices
    /// signs in any more and no device stays remembered (each was trusted under the old
    /// password); every session ends too if the pool asks for it.
    func endSessionsAfterPasswordChange(of user: UserRecord, pool: PoolRecord, in transaction: any StoreTransaction)
        async throws
    {
        let now = time.now
        guard pool.settings.userPoolTags?[PoolSettings.revokeTokensOnPasswordChangeTag]?.lowercased() == "true" else {
            try await transaction.withdrawDeviceTrust(poolId: pool.id, userSub: user.sub, at: now)
            return
        }
        try await tokenFamilies.endEverySession(of: user.sub, pool: pool, at: now, in: transaction)
    }
}

extension Passwords {
    /// The SRP verifier of a new password (the salt is 16 random bytes, stored PADded).
    func makePassword(_ password: String, username: String, poolId: String) -> StoredPassword {
        let salt = SRPEncoding.pad(random.bytes(16))
        let verifier = SRPServer.verifier(
            salt: salt, realm: SRPDerivation.poolName(ofPoolId: poolId), identity: username, secret: password)
        return StoredPassword(salt: salt, verifier: verifier)
    }
}
