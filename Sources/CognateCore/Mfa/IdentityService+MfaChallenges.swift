import CognateProtocol
import Foundation

extension IdentityService {
    /// The second factor a sign-in needs after its first, inside the first factor's transaction
    /// (nil: none). A user with a verified authenticator app is asked for a code when the pool
    /// requires MFA or the user enabled it (SOFTWARE_TOKEN_MFA); a user without one, in a pool
    /// that requires MFA, must set one up first (MFA_SETUP).
    func mfaChallenge(for user: UserRecord, pool: PoolRecord, client: ClientRecord, device: String?,
                      in transaction: any StoreTransaction) async throws -> AuthOutcome? {
        let mode = pool.settings.mfaConfiguration ?? .off
        guard mode != .off else { return nil }
        let mfa = try await transaction.userMfa(poolId: pool.id, sub: user.sub)
        let state = MfaSessionState(username: user.username, deviceKey: device)
        if pool.mfa.softwareToken, mfa?.totpSecret != nil, mode == .on || mfa?.totpEnabled == true {
            let session = try await openAuthSession(
                .softwareTokenMfa, state: state, user: user, pool: pool, client: client, encoding: .session, in: transaction)
            var parameters = ["USER_ID_FOR_SRP": user.username]
            parameters["FRIENDLY_DEVICE_NAME"] = mfa?.totpName
            return .challenge(.softwareTokenMfa, parameters: parameters, session: session)
        }
        guard mode == .on else { return nil }
        // Required MFA with no factor to set up must not let users in without one.
        guard pool.mfa.softwareToken else {
            throw CognitoError(.invalidUserPoolConfiguration, "MFA is required but no MFA method is enabled for the user pool.")
        }
        let session = try await openAuthSession(
            .mfaSetup, state: state, user: user, pool: pool, client: client, encoding: .session, in: transaction)
        return .challenge(.mfaSetup, parameters: [
            "MFAS_CAN_SETUP": #"["SOFTWARE_TOKEN_MFA"]"#, "USER_ID_FOR_SRP": user.username,
        ], session: session)
    }

    /// SOFTWARE_TOKEN_MFA answered (`SOFTWARE_TOKEN_MFA_CODE`): a code of the user's app for
    /// this time step (±30 s), never one already used. Three wrong codes use the session up.
    func answerSoftwareTokenMfa(_ responses: [String: String], session: String, clientMetadata: [String: String]?,
                                pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        let code = try AuthParameter.require("SOFTWARE_TOKEN_MFA_CODE", in: responses)
        let username = try AuthParameter.require(AuthParameter.username, in: responses)
        let now = time.now
        let result = try await transaction { transaction in
            let (pending, user) = try await self.openMfaSession(
                session, challenge: .softwareTokenMfa, username: username, responses: responses, pool: pool, client: client,
                in: transaction)
            guard let secret = try await transaction.userMfa(poolId: pool.id, sub: user.sub)?.totpSecret.flatMap(Base32.decode),
                let step = TOTP.matchingStep(code, secret: secret, now: now),
                try await transaction.useTotpStep(poolId: pool.id, sub: user.sub, step: step)
            else {
                let failures = try await transaction.incrementCounter(
                    key: "mfa-code:\(pending.record.tokenHash)", windowStart: pending.record.createdAt)
                if failures >= Self.mfaCodeAttempts { try await self.consumeAuthSession(pending.record, in: transaction) }
                throw CommitAndFail(Self.mfaCodeMismatch)
            }
            try await self.consumeAuthSession(pending.record, in: transaction)
            return try await self.completeFirstFactor(
                user, pool: pool, client: client, askingForMfa: false, device: pending.state.deviceKey, in: transaction)
        }
        return try await outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
    }

    /// MFA_SETUP answered, once VerifySoftwareToken verified the new app with this session:
    /// the user is signed in.
    func answerMfaSetup(_ responses: [String: String], session: String, clientMetadata: [String: String]?,
                        pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        let username = try AuthParameter.require(AuthParameter.username, in: responses)
        let result = try await transaction { transaction in
            let (pending, user) = try await self.openMfaSession(
                session, challenge: .mfaSetup, username: username, responses: responses, pool: pool, client: client,
                in: transaction)
            guard pending.state.verified else {
                throw CognitoError.invalidParameter("Set up an authenticator app first (AssociateSoftwareToken, VerifySoftwareToken).")
            }
            try await self.consumeAuthSession(pending.record, in: transaction)
            return try await self.completeFirstFactor(
                user, pool: pool, client: client, askingForMfa: false, device: pending.state.deviceKey, in: transaction)
        }
        return try await outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
    }

    /// An MFA session and its user (locked), checked against the answer's USERNAME and
    /// SECRET_HASH.
    func openMfaSession(_ session: String, challenge: ChallengeNameType, username: String?, responses: [String: String],
                        pool: PoolRecord, client: ClientRecord,
                        in transaction: any StoreTransaction) async throws -> (OpenAuthSession<MfaSessionState>, UserRecord) {
        let pending = try await readAuthSession(
            session, challenge: challenge, as: MfaSessionState.self, pool: pool, client: client, in: transaction)
        guard let sub = pending.record.userSub,
            let user = try await transaction.user(poolId: pool.id, sub: sub, forUpdate: true)
        else { throw AuthSessions.invalid }
        if let username {
            try checkAnswerNames(
                username, sessionUsername: pending.state.username, user: user, responses: responses, pool: pool,
                client: client)
        }
        return (pending, user)
    }

    static let mfaCodeAttempts = 3
    static let mfaCodeMismatch = CognitoError(.codeMismatch, "Invalid code received for user")
}
