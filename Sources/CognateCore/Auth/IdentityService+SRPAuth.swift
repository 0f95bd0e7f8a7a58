import CognateProtocol
import Crypto
import Foundation

extension IdentityService {
    /// USER_SRP_AUTH, first request: answers `PASSWORD_VERIFIER` with the user's salt, the
    /// server's public value `B` and a `SECRET_BLOCK` naming the stored exchange (no Session,
    /// as Cognito). For an unknown user with PreventUserExistenceErrors, a decoy challenge of
    /// the same shape and cost (its salt stable per username) that can only fail.
    func startSRP(_ parameters: [String: String], pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        let typed = try AuthParameter.require(AuthParameter.username, in: parameters)
        let aHex = try AuthParameter.require(AuthParameter.srpA, in: parameters)
        guard aHex.count <= SRPGroup.maximumPublicValueHexLength, let a = SRPEncoding.bytes(fromHex: aHex),
            SRPServer.isValidClientPublicValue(a)
        else { throw CognitoError.invalidParameter("SRP_A is not a valid public value.") }
        let b = random.bytes(32)
        return try await transaction { transaction in
            let found = try await self.findUser(typed, in: pool, transaction)
            try client.checkSecretHash(
                parameters[AuthParameter.secretHash], usernames: [typed] + (found.map { [$0.username, $0.sub] } ?? []))
            let user: UserRecord?, username: String, salt: [UInt8], verifier: [UInt8]
            if let found, let password = found.password {
                (user, username, salt, verifier) = (found, found.username, password.salt, password.verifier)
            } else {
                guard found != nil || client.preventsUserExistenceErrors else { throw CognitoError.userNotFound }
                (user, username) = (found, found?.username ?? self.decoyUsername(for: typed, pool: pool))
                salt = self.decoySalt(for: typed, pool: pool)
                verifier = SRPServer.verifier(salt: salt, realm: "decoy", identity: typed, secret: "decoy")
            }
            guard let bPublic = SRPServer.serverPublicValue(verifier: verifier, ephemeral: b) else {
                throw CognitoError.internalError("Degenerate SRP value; try again.")
            }
            let state = SRPSessionState(
                serverSecret: SRPEncoding.hexString(b), serverPublic: SRPEncoding.hexString(bPublic),
                clientPublic: SRPEncoding.hexString(a), username: username)
            let secretBlock = try await self.openAuthSession(
                .passwordVerifier, state: state, user: user, pool: pool, client: client, encoding: .secretBlock,
                in: transaction)
            return .challenge(.passwordVerifier, parameters: [
                "SALT": SRPEncoding.hexString(salt), "SRP_B": SRPEncoding.minimalHex(bPublic),
                "SECRET_BLOCK": secretBlock, "USERNAME": username, "USER_ID_FOR_SRP": username,
            ], session: nil)
        }
    }

    /// PASSWORD_VERIFIER, second request: recomputes the client's signature from the stored
    /// exchange and the user's verifier and compares it in constant time. The SECRET_BLOCK is
    /// used up whatever the outcome; a wrong signature counts towards the lockout.
    func verifySRPClaim(_ responses: [String: String], pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        let secretBlock = try AuthParameter.require("PASSWORD_CLAIM_SECRET_BLOCK", in: responses)
        let signatureText = try AuthParameter.require("PASSWORD_CLAIM_SIGNATURE", in: responses)
        let timestamp = try AuthParameter.require("TIMESTAMP", in: responses)
        let username = try AuthParameter.require(AuthParameter.username, in: responses)
        guard SRPTimestamp.isWellFormed(timestamp) else {
            throw CognitoError.invalidParameter("TIMESTAMP format should be EEE MMM d HH:mm:ss z yyyy in english.")
        }
        let now = time.now
        let user: UserRecord = try await transaction { transaction in
            let (session, state) = try await self.takeAuthSession(
                secretBlock, challenge: .passwordVerifier, as: SRPSessionState.self, pool: pool, client: client,
                in: transaction)
            guard let sub = session.userSub, let found = try await transaction.user(poolId: pool.id, sub: sub) else {
                throw CommitAndFail(.incorrectCredentials)
            }
            let user = try await self.locked(found, transaction)  // one password check per user at a time
            guard let password = user.password else { throw CommitAndFail(.incorrectCredentials) }
            try client.checkSecretHash(responses[AuthParameter.secretHash], usernames: [username, user.username, user.sub])
            try await self.checkNotLockedOut(user, in: transaction)
            guard let date = SRPTimestamp.parse(timestamp), abs(date.timeIntervalSince(now)) <= 300,
                username == state.username || username == user.sub,
                let signature = Data(base64Encoded: signatureText),
                let key = SRPServer.sessionKey(
                    clientPublic: SRPEncoding.bytes(fromHex: state.clientPublic) ?? [],
                    serverPublic: SRPEncoding.bytes(fromHex: state.serverPublic) ?? [],
                    verifier: password.verifier, ephemeral: SRPEncoding.bytes(fromHex: state.serverSecret) ?? []),
                let blockBytes = Data(base64Encoded: secretBlock),
                ConstantTime.equals(
                    SRPDerivation.claimSignature(
                        sessionKey: key, realm: SRPDerivation.poolName(ofPoolId: pool.id), identity: state.username,
                        secretBlock: Array(blockBytes), timestamp: timestamp),
                    Array(signature))
            else {
                try await self.recordFailedSignIn(user, in: transaction)
                throw CommitAndFail(.incorrectCredentials)
            }
            try await transaction.clearSignInLockout(poolId: user.poolId, userSub: user.sub)
            return user
        }
        return try await completeFirstFactor(user, pool: pool, client: client)
    }

    /// The USER_ID_FOR_SRP of a decoy: what a real user's would look like — a UUID where users
    /// sign in with an email, phone number or alias (their internal name differs from what they
    /// typed), the typed name otherwise. Stable per name.
    func decoyUsername(for typed: String, pool: PoolRecord) -> String {
        let names = SignInNames(pool: pool.settings)
        let couldBeUsername = (try? names.checkUsernameFormat(typed)) != nil
        guard names.usesAttributeAsUsername || !couldBeUsername else { return typed }
        let hex = Array(codes.hash("decoy-user|\(typed)", userSub: pool.id, purpose: .signUp))
        var uuid = Array(hex.prefix(32))
        uuid[12] = "4"
        uuid[16] = ["8", "9", "a", "b"][Int(String(uuid[16]), radix: 16)! % 4]
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(uuid[$0]) }.joined(separator: "-")
    }

    /// A salt for a username that does not exist, the same on every request (a salt that
    /// changed would give the decoy away) and unpredictable without the server's secret.
    func decoySalt(for username: String, pool: PoolRecord) -> [UInt8] {
        let mac = codes.hash("decoy-salt|\(username)", userSub: pool.id, purpose: .signUp)
        return SRPEncoding.pad(SRPEncoding.bytes(fromHex: String(mac.prefix(32))) ?? [])
    }
}
