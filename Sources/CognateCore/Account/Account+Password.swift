import CognateProtocol
import Foundation


extension Account {
    /// ChangePassword: the signed-in user proves the current password (a wrong one counts
    /// towards the lockout) and sets a new one; at most `passwordChangesPerHour` per user. A
    /// user without a password sets one without proving any, except a federated user: their
    /// identity provider vouches for them, and a password would let whoever holds one of their
    /// access tokens sign in without it, for good.
    /// - Throws: NotAuthorizedException for a federated user (`EXTERNAL_PROVIDER`).
    public func changePassword(_ request: ChangePasswordRequest) async throws -> ChangePasswordResponse {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        let pool = caller.pool
        let realm = SRPDerivation.poolName(ofPoolId: pool.id)
        let limit = configuration.passwordChangesPerHour
        try await store.transaction { transaction in
            var user = try await users.locked(caller.user, transaction)
            if user.status == .externalProvider {
                throw CognitoError.notAuthorized("A user of an external identity provider cannot have a password.")
            }
            try await allowances.consumeHourlyAllowance("changePassword", subject: user.sub, pool: pool, limit: limit, transaction)
            try await throttle.checkNotLockedOut(user.sub, poolId: pool.id, in: transaction)
            if let stored = user.password {
                guard let previous = request.previousPassword,
                    SRPServer.matches(secret: previous, salt: stored.salt, realm: realm, identity: user.username,
                                      verifier: stored.verifier)
                else {
                    try await throttle.recordFailedSignIn(user.sub, poolId: pool.id, in: transaction)
                    throw CommitAndFail(.incorrectCredentials)
                }
            }
            try await passwords.setChosenPassword(request.proposedPassword, on: &user, pool: pool, in: transaction)
            user.updatedAt = self.time.now
            try await transaction.updateUser(user)
            try await passwords.endSessionsAfterPasswordChange(of: user, pool: pool, in: transaction)
            try await authEvents.recordAuthEvent(.passwordChange, of: user, pool: pool, in: transaction)
        }
        return ChangePasswordResponse()
    }
}
