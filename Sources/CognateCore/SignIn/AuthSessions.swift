import CognateProtocol
import Crypto
import Foundation

/// Where sign-ins in progress keep their steps (``AuthSessions``): opened, read back, used up.
struct AuthSessionBook: Sendable {
    let time: any TimeSource
    let random: any RandomSource
}

/// Sessions of sign-ins in progress (cognito-protocol §3.1): the `Session` string of a
/// challenge, or the `SECRET_BLOCK` of an SRP exchange.
///
/// Contract: the token is 48 random bytes (unforgeable); only its SHA-256 is stored; it is
/// bound to the pool, app client and user it was issued for, expires after the client's
/// `AuthSessionValidity` (3 minutes by default), and is consumed by the answer that uses it —
/// of concurrent answers, exactly one; it lives in the store, so any node continues the sign-in.
enum AuthSessions {
    enum Encoding {
        /// `Session`: base64url.
        case session
        /// `SECRET_BLOCK`: standard base64 with padding (what pycognito and Amplify decode).
        case secretBlock
    }

    static func newToken(_ random: any RandomSource, encoding: Encoding) -> String {
        let bytes = random.bytes(48)
        switch encoding {
        case .session: return Base64URL.encode(bytes)
        case .secretBlock: return Data(bytes).base64EncodedString()
        }
    }

    static func hash(_ token: String) -> String {
        SRPEncoding.hexString(SHA256.hash(data: Data(token.utf8)))
    }

    static let expired = CognitoError.notAuthorized("Invalid session for the user, session is expired.")
    static let invalid = CognitoError.notAuthorized("Invalid session for the user.")
}

/// What an SRP exchange remembers between its two requests.
struct SRPSessionState: Codable, Sendable {
    var serverSecret: String   // b (hex)
    var serverPublic: String   // B (hex)
    var clientPublic: String   // A (hex)
    var username: String       // USER_ID_FOR_SRP
    /// For a name that is no user (PreventUserExistenceErrors): the decoy verifier the second
    /// step computes with, as it would with a real one, and the subject its failure counts for.
    var decoy: SRPDecoy?
    /// The CUSTOM_AUTH sign-in this exchange is a step of (`CHALLENGE_NAME=SRP_A`).
    var customAuth: CustomAuthSessionState?
    /// The DEVICE_KEY the sign-in started with (the answer may name it instead).
    var deviceKey: String?
}

struct SRPDecoy: Codable, Sendable {
    var verifier: String       // hex
    var subject: String
}

/// What a NEW_PASSWORD_REQUIRED challenge remembers.
struct NewPasswordSessionState: Codable, Sendable {
    var username: String
    var deviceKey: String?
}

/// A session read back, with its state.
struct OpenAuthSession<State: Sendable>: Sendable {
    var record: AuthSessionRecord
    var state: State
}

extension AuthSessionBook {
    /// Stores a session awaiting `challenge` and returns its token: a new random one, or
    /// `token` for a step the server finds by name rather than by a token the client holds.
    /// It lives `lifetime` seconds, by default the client's AuthSessionValidity. One statement.
    func openAuthSession<State: Encodable>(
        _ step: PendingStep, state: State, user: UserRecord?, pool: PoolRecord, client: ClientRecord,
        encoding: AuthSessions.Encoding, token named: String? = nil, lifetime: TimeInterval? = nil,
        in transaction: any StoreTransaction
    ) async throws -> String {
        let (token, record) = try newAuthSession(
            step, state: state, user: user, pool: pool, client: client, encoding: encoding, token: named,
            lifetime: lifetime)
        try await transaction.insertAuthSession(record)
        return token
    }

    /// A session as ``openAuthSession(_:state:user:pool:client:encoding:token:lifetime:in:)``
    /// stores it, and its token, not stored yet (``AtomicWrites/insertAuthSession(_:)``).
    func newAuthSession<State: Encodable>(
        _ step: PendingStep, state: State, user: UserRecord?, pool: PoolRecord, client: ClientRecord,
        encoding: AuthSessions.Encoding, token named: String? = nil, lifetime: TimeInterval? = nil
    ) throws -> (token: String, record: AuthSessionRecord) {
        let now = time.now
        let token = named ?? AuthSessions.newToken(random, encoding: encoding)
        let seconds = lifetime ?? TimeInterval(client.settings.authSessionValidity ?? 3) * 60
        let json = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
        return (token, AuthSessionRecord(
            tokenHash: AuthSessions.hash(token), poolId: pool.id, clientId: client.clientId, userSub: user?.sub,
            challenge: step.storedName, state: json, createdAt: now, expiresAt: now + seconds))
    }

    /// The session a token names, checked against the challenge being answered, the client
    /// answering it and its expiry — without using it up (see ``consumeAuthSession(_:in:)``).
    func readAuthSession<State: Decodable & Sendable>(
        _ token: String, challenge step: PendingStep, as: State.Type, pool: PoolRecord, client: ClientRecord,
        in transaction: any StoreTransaction
    ) async throws -> OpenAuthSession<State> {
        guard let session = try await transaction.authSession(tokenHash: AuthSessions.hash(token)),
            session.poolId == pool.id, session.clientId == client.clientId
        else { throw AuthSessions.invalid }
        guard time.now < session.expiresAt else { throw AuthSessions.expired }
        guard session.challenge == step.storedName else {
            throw CognitoError.invalidParameter("The session expects the \(session.challenge) challenge, not \(step.storedName).")
        }
        return OpenAuthSession(record: session, state: try JSONDecoder().decode(State.self, from: Data(session.state.utf8)))
    }

    /// Checks a challenge answer's USERNAME and SECRET_HASH against the session it answers: the
    /// answer names the user as the challenge did (`sessionUsername`), by sub, or by username
    /// as the pool folds it, or by a sign-in name of theirs (the email where it is the username,
    /// a verified alias); `user` is nil for the sessions of names that are no user.
    func checkAnswerNames(_ username: String, sessionUsername: String, user: UserRecord?, responses: [String: String],
                          pool: PoolRecord, client: ClientRecord) throws {
        let signInNames = SignInNames(pool: pool.settings)
        let namesUser = user.map {
            username == $0.sub || signInNames.usernameKey(username) == $0.usernameKey
                || !Set(signInNames.names(for: $0.attributes)).isDisjoint(with: signInNames.candidateKeys(for: username))
        } ?? false
        guard username == sessionUsername || namesUser else { throw AuthSessions.invalid }
        try client.checkSecretHash(
            responses[AuthParameter.secretHash],
            usernames: [username, sessionUsername] + (user.map { [$0.username, $0.sub] } ?? []))
    }

    /// Uses the session up; refuses it when another answer already did.
    func consumeAuthSession(_ session: AuthSessionRecord, in transaction: any StoreTransaction) async throws {
        guard try await transaction.consumeAuthSession(tokenHash: session.tokenHash) else { throw AuthSessions.invalid }
    }
}

extension AuthSessionBook {
    /// An MFA session and its user (locked), checked against the answer's USERNAME and
    /// SECRET_HASH.
    func openMfaSession(_ session: String, challenge: ChallengeNameType, username: String?, responses: [String: String],
                        pool: PoolRecord, client: ClientRecord,
                        in transaction: any StoreTransaction) async throws -> (OpenAuthSession<MfaSessionState>, UserRecord) {
        let pending = try await readAuthSession(
            session, challenge: .challenge(challenge), as: MfaSessionState.self, pool: pool, client: client, in: transaction)
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
}
