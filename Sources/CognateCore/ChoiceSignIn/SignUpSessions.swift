import CognateProtocol
import Foundation

/// Sign-in straight after sign-up (choice-based sign-in): SignUp's `Session` goes with the
/// confirmation code to ConfirmSignUp, whose `Session` signs the user in through InitiateAuth
/// (USER_AUTH) without another factor — the confirmation code proved the address. Only for app
/// clients that allow USER_AUTH.
///
/// Contract: each session is bound to its pool, app client and user, and used once. SignUp's
/// lives as long as the confirmation code does (a day); ConfirmSignUp's as long as the
/// client's AuthSessionValidity.
struct SignUpSessions: Sendable {
    let authSessions: AuthSessionBook

    static let confirmationLifetime: TimeInterval = 24 * 60 * 60

    /// SignUp's session for `user`: to confirm with (``continueAfterConfirmation(_:of:pool:client:in:)``),
    /// or, for a user confirmed at once (PreSignUp), to sign in with. Nil when the client does
    /// not allow USER_AUTH.
    func afterSignUp(_ user: UserRecord, pool: PoolRecord, client: ClientRecord,
                     in transaction: any StoreTransaction) async throws -> String? {
        guard ClientSettings.allowedFlows(client.settings).contains(.allowUserAuth) else { return nil }
        let state = SignUpSessionState(username: user.username)
        if user.status == .confirmed {
            return try await authSessions.openAuthSession(
                .signUpSignIn, state: state, user: user, pool: pool, client: client, encoding: .session, in: transaction)
        }
        return try await authSessions.openAuthSession(
            .signUpConfirmation, state: state, user: user, pool: pool, client: client, encoding: .session,
            lifetime: Self.confirmationLifetime, in: transaction)
    }

    /// ConfirmSignUp's session, given SignUp's for the user just confirmed (used up here);
    /// nil when there is none, or it is not this user's or client's.
    func continueAfterConfirmation(_ token: String?, of user: UserRecord, pool: PoolRecord, client: ClientRecord,
                                   in transaction: any StoreTransaction) async throws -> String? {
        guard let token, !token.isEmpty,
            let pending = try? await authSessions.readAuthSession(
                token, challenge: .signUpConfirmation, as: SignUpSessionState.self, pool: pool, client: client,
                in: transaction),
            pending.record.userSub == user.sub
        else { return nil }
        try await authSessions.consumeAuthSession(pending.record, in: transaction)
        return try await authSessions.openAuthSession(
            .signUpSignIn, state: pending.state, user: user, pool: pool, client: client, encoding: .session,
            in: transaction)
    }

    /// The user a sign-up's sign-in session stands for (used up here), checked against the
    /// USERNAME and SECRET_HASH of the InitiateAuth that presents it.
    func signIn(with token: String, parameters: [String: String], pool: PoolRecord, client: ClientRecord,
                in transaction: any StoreTransaction) async throws -> UserRecord {
        let username = try AuthParameter.require(AuthParameter.username, in: parameters)
        let pending = try await authSessions.readAuthSession(
            token, challenge: .signUpSignIn, as: SignUpSessionState.self, pool: pool, client: client, in: transaction)
        guard let sub = pending.record.userSub,
            let user = try await transaction.user(poolId: pool.id, sub: sub, forUpdate: true)
        else { throw AuthSessions.invalid }
        try authSessions.checkAnswerNames(
            username, sessionUsername: pending.state.username, user: user, responses: parameters, pool: pool, client: client)
        try await authSessions.consumeAuthSession(pending.record, in: transaction)
        return user
    }
}

/// What a sign-up's session remembers: the user's name.
struct SignUpSessionState: Codable, Sendable {
    var username: String
}
