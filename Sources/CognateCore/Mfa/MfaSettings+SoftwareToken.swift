import CognateProtocol
import Foundation

extension MfaSettings {
    /// AssociateSoftwareToken: a new 160-bit secret for the user's authenticator app, pending
    /// until VerifySoftwareToken proves the app has it. Signed in (AccessToken), or during an
    /// MFA_SETUP challenge (Session: answered with a new session for the next step).
    public func associateSoftwareToken(_ request: AssociateSoftwareTokenRequest) async throws -> AssociateSoftwareTokenResponse {
        let secret = Base32.encode(random.bytes(TOTP.secretLength))
        let now = time.now
        if let accessToken = request.accessToken {
            let caller = try await authenticator.authenticatedUser(accessToken)
            try Self.requireSoftwareTokenMfa(caller.pool)
            try await store.write { transaction in
                try await self.updateMfa(of: caller.user, pool: caller.pool, now: now, in: transaction) {
                    $0.pendingTotpSecret = secret
                }
            }
            return AssociateSoftwareTokenResponse(secretCode: secret)
        }
        guard let session = request.session else {
            throw CognitoError.invalidParameter("Either AccessToken or Session is required.")
        }
        let next = try await continueMfaSetup(session) { user, pool, transaction in
            try await self.updateMfa(of: user, pool: pool, now: now, in: transaction) { $0.pendingTotpSecret = secret }
            return false
        }
        return AssociateSoftwareTokenResponse(secretCode: secret, session: next)
    }

    /// Reads the user's MFA record (a new one when there is none), lets `change` edit it, and
    /// saves it.
    func updateMfa(of user: UserRecord, pool: PoolRecord, now: Date, in transaction: any StoreTransaction,
                           _ change: (inout UserMfaRecord) throws -> Void) async throws {
        var record = try await transaction.userMfa(poolId: pool.id, sub: user.sub)
            ?? UserMfaRecord(poolId: pool.id, userSub: user.sub, updatedAt: now)
        try change(&record)
        record.updatedAt = now
        try await transaction.saveUserMfa(record)
    }

    /// VerifySoftwareToken: a code of the pending secret makes it the user's authenticator app
    /// (named `FriendlyDeviceName`). A wrong code answers EnableSoftwareTokenMFAException and
    /// the secret stays pending.
    public func verifySoftwareToken(_ request: VerifySoftwareTokenRequest) async throws -> VerifySoftwareTokenResponse {
        let now = time.now
        let code = request.userCode
        let name = request.friendlyDeviceName
        if let accessToken = request.accessToken {
            let caller = try await authenticator.authenticatedUser(accessToken)
            try Self.requireSoftwareTokenMfa(caller.pool)
            try await store.write { transaction in
                try await self.adoptPendingSecret(code, name: name, user: caller.user, pool: caller.pool, now: now, in: transaction)
            }
            return VerifySoftwareTokenResponse(status: .success)
        }
        guard let session = request.session else {
            throw CognitoError.invalidParameter("Either AccessToken or Session is required.")
        }
        let next = try await continueMfaSetup(session) { user, pool, transaction in
            try await self.adoptPendingSecret(code, name: name, user: user, pool: pool, now: now, in: transaction)
            return true
        }
        return VerifySoftwareTokenResponse(status: .success, session: next)
    }

    /// Makes the pending secret the user's app when `code` is one of its codes.
    private func adoptPendingSecret(_ code: String, name: String?, user: UserRecord, pool: PoolRecord, now: Date,
                                    in transaction: any StoreTransaction) async throws {
        guard var record = try await transaction.userMfa(poolId: pool.id, sub: user.sub),
            let pending = record.pendingTotpSecret.flatMap(Base32.decode)
        else { throw CognitoError(.softwareTokenMFANotFound, "Software Token MFA has not been associated with the user.") }
        guard let step = TOTP.matchingStep(code, secret: pending, now: now) else {
            throw CognitoError(.enableSoftwareTokenMFA, "Code mismatch")
        }
        record.totpSecret = record.pendingTotpSecret
        record.pendingTotpSecret = nil
        record.totpName = name
        record.lastTotpStep = step
        record.updatedAt = now
        // A pool that requires MFA uses the app at once; elsewhere the user turns it on.
        if pool.settings.mfaConfiguration == .on { record.totpEnabled = true }
        try await transaction.saveUserMfa(record)
    }

    /// One step of MFA_SETUP by session: `body` acts for the session's user; the old session
    /// is used up and a new one returned (`verified` when `body` says the app is verified).
    /// Only where the pool enables the app: an MFA_SETUP that offers email alone sets up no app.
    private func continueMfaSetup(
        _ session: String,
        _ body: @escaping @Sendable (UserRecord, PoolRecord, any StoreTransaction) async throws -> Bool
    ) async throws -> String {
        guard let record = try await store.read({ try await $0.authSession(tokenHash: AuthSessions.hash(session)) }),
            let (pool, client) = try? await directory.requireClient(record.clientId)
        else { throw AuthSessions.invalid }
        try Self.requireSoftwareTokenMfa(pool)
        return try await store.write { transaction in
            let (pending, user) = try await authSessions.openMfaSession(
                session, challenge: .mfaSetup, username: nil, responses: [:], pool: pool, client: client, in: transaction)
            let verified = try await body(user, pool, transaction)
            try await authSessions.consumeAuthSession(pending.record, in: transaction)
            return try await authSessions.openAuthSession(
                .mfaSetup,
                state: MfaSessionState(username: user.username, verified: verified, deviceKey: pending.state.deviceKey),
                user: user, pool: pool,
                client: client, encoding: .session, in: transaction)
        }
    }

    private static func requireSoftwareTokenMfa(_ pool: PoolRecord) throws {
        guard pool.mfa.softwareToken else {
            throw CognitoError(.invalidUserPoolConfiguration, "Software token MFA is not enabled for the user pool.")
        }
    }
}
