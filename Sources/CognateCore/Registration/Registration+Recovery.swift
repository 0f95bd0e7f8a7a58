import CognateProtocol
import Foundation

extension Registration {
    /// ForgotPassword: a reset code (valid one hour) to the user's verified channel, chosen by
    /// the pool's AccountRecoverySetting; InvalidParameterException when there is none. At most
    /// `codeRequestsPerHour` per hour. With PreventUserExistenceErrors, a name that gets no code
    /// (no user, disabled, waiting for a first sign-in, no verified channel) is answered as if
    /// one went out, under the same hourly limit. A name that is no user may be brought in by
    /// the pool's UserMigration function first.
    public func forgotPassword(_ request: ForgotPasswordRequest) async throws -> ForgotPasswordResponse {
        let (pool, client) = try await directory.requireClient(request.clientId)
        try await allowances.countRequest(.accountRecovery, client: client)
        let limit = configuration.codeRequestsPerHour
        if triggers.isConfigured(.userMigration, pool: pool),
            try await store.read({ try await users.findUser(request.username, in: pool, $0) }) == nil
        {
            // A user of the old directory: the pool's UserMigration function may bring them in.
            try client.checkSecretHash(request.secretHash, usernames: [request.username])
            _ = try await migration.migrateUser(
                request.username, password: nil, clientMetadata: request.clientMetadata, pool: pool, client: client)
        }
        let (pending, unsent): (PendingCode?, UserRecord?) = try await store.write { transaction in
            let found = try await users.publicCaller(
                request.username, secretHash: request.secretHash, pool: pool, client: client,
                notFound: CognitoError(.userNotFound, "Username/client id combination not found."), transaction)
            let refusal = found.flatMap { self.resetRefusal(for: $0, pool: pool) }
            guard let user = found, refusal == nil, let destination = pool.recoveryDestination(for: user) else {
                if let refusal, !client.preventsUserExistenceErrors { throw refusal }
                let subject = found?.sub ?? decoys.decoySubject(for: request.username, pool: pool)
                try await allowances.consumeHourlyAllowance("forgotPassword", subject: subject, pool: pool, limit: limit, transaction)
                return (nil, found)
            }
            try await allowances.consumeHourlyAllowance("forgotPassword", subject: user.sub, pool: pool, limit: limit, transaction)
            try await authEvents.recordAuthEvent(.forgotPassword, of: user, pool: pool, in: transaction)
            return (try await messenger.issueCode(
                .forgotPassword, for: user, to: destination, pool: pool, clientId: client.clientId, in: transaction), nil)
        }
        guard let pending else {
            return ForgotPasswordResponse(
                codeDeliveryDetails: decoys.unsentDelivery(for: request.username, user: unsent, pool: pool, recovery: true))
        }
        return ForgotPasswordResponse(codeDeliveryDetails: try await messenger.send(
            [pending], pool: pool, clientId: client.clientId, clientMetadata: request.clientMetadata).first)
    }

    /// Why `user` cannot be sent a reset code, if they cannot.
    func resetRefusal(for user: UserRecord, pool: PoolRecord) -> CognitoError? {
        if !user.enabled { return .userDisabled }
        // They sign in with the temporary password (or an administrator resends it); a
        // federated user signs in at their identity provider and has no password to reset.
        if user.status == .forceChangePassword || user.status == .externalProvider {
            return .notAuthorized("User password cannot be reset in the current state.")
        }
        if pool.recoveryDestination(for: user) == nil {
            return .invalidParameter("Cannot reset password for the user as there is no registered/verified email or phone_number")
        }
        return nil
    }

    /// ConfirmForgotPassword: the reset code and a new password meeting the policy set the
    /// password (a refused password leaves the code unspent: the transaction rolls back); a
    /// user who had to reset is CONFIRMED again and any lockout ends. With
    /// PreventUserExistenceErrors, a name that is no user or a disabled user is answered as a
    /// wrong code is (and counted like one); a code that was used or never sent is
    /// ExpiredCodeException, as in Cognito, unless the pool hides existing users too.
    public func confirmForgotPassword(_ request: ConfirmForgotPasswordRequest) async throws -> ConfirmForgotPasswordResponse {
        let (pool, client) = try await directory.requireClient(request.clientId)
        try await allowances.countRequest(.accountRecovery, client: client)
        let now = time.now
        let codes = self.codes
        let reset = try await store.transaction { transaction in
            guard let found = try await users.publicCaller(
                request.username, secretHash: request.secretHash, pool: pool, client: client, transaction)
            else {
                try await codes.refuseGuessWithoutCode(
                    subject: decoys.decoySubject(for: request.username, pool: pool), purpose: .forgotPassword,
                    in: transaction, now: now)
            }
            var user = try await users.locked(found, transaction)
            guard user.enabled, user.status != .externalProvider else {
                guard client.preventsUserExistenceErrors else { throw self.resetRefusal(for: user, pool: pool) ?? .userDisabled }
                try await codes.refuseGuessWithoutCode(subject: user.sub, purpose: .forgotPassword, in: transaction, now: now)
            }
            _ = try await codes.redeem(
                request.confirmationCode, for: user, purpose: .forgotPassword,
                revealsMissingCode: !client.hidesExistingUsers(in: pool), in: transaction, now: now)
            try await passwords.setChosenPassword(request.password, on: &user, pool: pool, in: transaction)
            if user.status == .resetRequired || user.status == .forceChangePassword { user.status = .confirmed }
            user.updatedAt = now
            try await transaction.updateUser(user)
            try await transaction.clearSignInLockout(poolId: pool.id, subject: user.sub)
            try await passwords.endSessionsAfterPasswordChange(of: user, pool: pool, in: transaction)
            try await authEvents.recordAuthEvent(.passwordChange, of: user, pool: pool, in: transaction)
            return user
        }
        try await triggerCalls.runPostConfirmation(
            "PostConfirmation_ConfirmForgotPassword", user: reset, pool: pool, clientId: client.clientId,
            clientMetadata: request.clientMetadata)
        return ConfirmForgotPasswordResponse()
    }

}
