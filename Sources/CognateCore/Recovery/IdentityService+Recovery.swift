import CognateProtocol
import Foundation

extension IdentityService {
    /// ForgotPassword: a reset code (valid one hour) to the user's verified channel, chosen by
    /// the pool's AccountRecoverySetting; InvalidParameterException when there is none.
    public func forgotPassword(_ request: ForgotPasswordRequest) async throws -> ForgotPasswordResponse {
        let (pool, client) = try await requireClient(request.clientId)
        let now = time.now
        let limit = configuration.codeRequestsPerHour
        let sent: PendingCode? = try await store.write { transaction in
            guard let user = try await self.publicCaller(
                request.username, secretHash: request.secretHash, pool: pool, client: client, transaction)
            else { return nil }
            guard user.enabled else { throw CognitoError.userDisabled }
            guard user.status != .forceChangePassword else {
                // They sign in with the temporary password (or an administrator resends it).
                throw CognitoError.notAuthorized("User password cannot be reset in the current state.")
            }
            guard let destination = self.recoveryDestination(for: user, pool: pool) else {
                throw CognitoError.invalidParameter(
                    "Cannot reset password for the user as there is no registered/verified email or phone_number")
            }
            try await self.consumeHourlyAllowance("forgotPassword", user: user, limit: limit, transaction)
            let issued = self.codes.issue(
                for: user, purpose: .forgotPassword, deliveredTo: destination.attribute, now: now,
                lifetime: self.configuration.passwordResetCodeLifetime)
            try await transaction.saveCode(issued.record)
            return PendingCode(user: user, destination: destination, code: issued.code, purpose: .forgotPassword)
        }
        guard let sent else {
            return ForgotPasswordResponse(codeDeliveryDetails: Self.simulatedDelivery(for: request.username, pool: pool))
        }
        return ForgotPasswordResponse(codeDeliveryDetails: try await send([sent], pool: pool).first)
    }

    /// ConfirmForgotPassword: the reset code and a new password meeting the policy set the
    /// password (a refused password leaves the code unspent: the transaction rolls back); a
    /// user who had to reset is CONFIRMED again and any lockout ends.
    public func confirmForgotPassword(_ request: ConfirmForgotPasswordRequest) async throws -> ConfirmForgotPasswordResponse {
        let (pool, client) = try await requireClient(request.clientId)
        let now = time.now
        let codes = self.codes
        try await transaction { transaction in
            guard let found = try await self.publicCaller(
                request.username, secretHash: request.secretHash, pool: pool, client: client, transaction)
            else { throw CognitoError.codeMismatch }
            var user = try await self.locked(found, transaction)
            guard user.enabled else { throw CognitoError.userDisabled }
            _ = try await codes.redeem(request.confirmationCode, for: user, purpose: .forgotPassword, in: transaction, now: now)
            try await self.setChosenPassword(request.password, on: &user, pool: pool, in: transaction)
            if user.status == .resetRequired || user.status == .forceChangePassword { user.status = .confirmed }
            user.updatedAt = now
            try await transaction.updateUser(user)
            try await transaction.clearSignInLockout(poolId: pool.id, userSub: user.sub)
            try await self.endSessionsAfterPasswordChange(of: user, pool: pool, in: transaction)
        }
        return ConfirmForgotPasswordResponse()
    }

    /// ChangePassword: the signed-in user proves the current password (a wrong one counts
    /// towards the lockout) and sets a new one; at most `passwordChangesPerHour` per user.
    public func changePassword(_ request: ChangePasswordRequest) async throws -> ChangePasswordResponse {
        let caller = try await authenticatedUser(request.accessToken)
        let pool = caller.pool
        let realm = SRPDerivation.poolName(ofPoolId: pool.id)
        let limit = configuration.passwordChangesPerHour
        try await transaction { transaction in
            var user = try await self.locked(caller.user, transaction)
            try await self.consumeHourlyAllowance("changePassword", user: user, limit: limit, transaction)
            try await self.checkNotLockedOut(user, in: transaction)
            if let stored = user.password {
                guard let previous = request.previousPassword,
                    SRPServer.matches(secret: previous, salt: stored.salt, realm: realm, identity: user.username,
                                      verifier: stored.verifier)
                else {
                    try await self.recordFailedSignIn(user, in: transaction)
                    throw CommitAndFail(.incorrectCredentials)
                }
            }
            try await self.setChosenPassword(request.proposedPassword, on: &user, pool: pool, in: transaction)
            user.updatedAt = self.time.now
            try await transaction.updateUser(user)
            try await self.endSessionsAfterPasswordChange(of: user, pool: pool, in: transaction)
        }
        return ChangePasswordResponse()
    }
}
