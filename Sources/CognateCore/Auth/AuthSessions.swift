import CognateProtocol
import Crypto
import Foundation

/// Sessions of sign-ins in progress (cognito-protocol §3.1): the `Session` string of a
/// challenge, or the `SECRET_BLOCK` of an SRP exchange.
///
/// Contract: the token is 48 random bytes (unforgeable); only its SHA-256 is stored; it is
/// bound to the pool, app client and user it was issued for, expires after the client's
/// `AuthSessionValidity` (3 minutes by default), and is consumed by the answer that uses it;
/// it lives in the store, so any node can continue the sign-in.
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
        SHA256.hash(data: Data(token.utf8)).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
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
}

/// What a NEW_PASSWORD_REQUIRED challenge remembers.
struct NewPasswordSessionState: Codable, Sendable {
    var username: String
}

extension IdentityService {
    /// Stores a session awaiting `challenge` and returns its token.
    func openAuthSession<State: Encodable>(
        _ challenge: ChallengeNameType, state: State, user: UserRecord?, pool: PoolRecord, client: ClientRecord,
        encoding: AuthSessions.Encoding, in transaction: any StoreTransaction
    ) async throws -> String {
        let now = time.now
        let token = AuthSessions.newToken(random, encoding: encoding)
        let minutes = TimeInterval(client.settings.authSessionValidity ?? 3)
        let json = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
        try await transaction.deleteAuthSessions(expiredBefore: now)
        try await transaction.insertAuthSession(AuthSessionRecord(
            tokenHash: AuthSessions.hash(token), poolId: pool.id, clientId: client.clientId, userSub: user?.sub,
            challenge: challenge.rawValue, state: json, createdAt: now, expiresAt: now + minutes * 60))
        return token
    }

    /// The session a token names, checked against the challenge being answered and the
    /// client answering it, and deleted (the caller's transaction decides whether the deletion
    /// sticks: it does unless the transaction rolls back).
    func takeAuthSession<State: Decodable>(
        _ token: String, challenge: ChallengeNameType, as: State.Type, pool: PoolRecord, client: ClientRecord,
        in transaction: any StoreTransaction
    ) async throws -> (AuthSessionRecord, State) {
        guard let session = try await transaction.authSession(tokenHash: AuthSessions.hash(token)),
            session.poolId == pool.id, session.clientId == client.clientId
        else { throw AuthSessions.invalid }
        guard time.now < session.expiresAt else {
            try await transaction.deleteAuthSession(tokenHash: session.tokenHash)
            throw CommitAndFail(AuthSessions.expired)
        }
        guard session.challenge == challenge.rawValue else {
            throw CognitoError.invalidParameter("The session expects the \(session.challenge) challenge, not \(challenge.rawValue).")
        }
        try await transaction.deleteAuthSession(tokenHash: session.tokenHash)
        let state = try JSONDecoder().decode(State.self, from: Data(session.state.utf8))
        return (session, state)
    }
}
