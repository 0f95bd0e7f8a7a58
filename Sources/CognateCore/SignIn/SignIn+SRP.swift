import CognateProtocol
import Crypto
import Foundation

extension SignIn {
    /// USER_SRP_AUTH, first request: answers `PASSWORD_VERIFIER` with the user's salt, the
    /// server's public value `B` and a `SECRET_BLOCK` naming the stored exchange (no Session,
    /// as Cognito). For an unknown user with PreventUserExistenceErrors, a decoy challenge of
    /// the same shape and cost (its salt stable per username) that can only fail.
    /// `runsPreAuthentication`: false when the sign-in ran it already (a factor of USER_AUTH).
    func startSRP(_ parameters: [String: String], clientMetadata: [String: String]?, pool: PoolRecord,
                  client: ClientRecord, runsPreAuthentication: Bool = true) async throws -> AuthOutcome {
        let typed = try AuthParameter.require(AuthParameter.username, in: parameters)
        let a = try Self.clientPublicValue(parameters)
        let found = try await store.read { try await users.findUser(typed, in: pool, $0) }
        try client.checkSecretHash(
            parameters[AuthParameter.secretHash], usernames: [typed] + (found.map { [$0.username, $0.sub] } ?? []))
        guard found != nil || client.preventsUserExistenceErrors else { throw CognitoError.userNotFound }
        if runsPreAuthentication {
            try await triggerCalls.runPreAuthentication(
                user: found, typed: typed, pool: pool, client: client, clientMetadata: clientMetadata)
        }
        return try await openPasswordVerifier(
            clientPublic: a, typed: typed, user: found, device: parameters[AuthParameter.deviceKey], pool: pool, client: client)
    }

    /// SRP_A, checked: a hex number of at most the group's size that is not 0 mod N.
    static func clientPublicValue(_ parameters: [String: String]) throws -> [UInt8] {
        let aHex = try AuthParameter.require(AuthParameter.srpA, in: parameters)
        guard aHex.count <= SRPGroup.maximumPublicValueHexLength, let a = SRPEncoding.bytes(fromHex: aHex),
            SRPServer.isValidClientPublicValue(a)
        else { throw CognitoError.invalidParameter("SRP_A is not a valid public value.") }
        return a
    }

    /// The PASSWORD_VERIFIER challenge for `user` (a decoy when nil: the caller has checked that
    /// PreventUserExistenceErrors allows it). `customAuth`: the CUSTOM_AUTH sign-in this
    /// password check is a step of, continued once the password is proved.
    func openPasswordVerifier(clientPublic a: [UInt8], typed: String, user found: UserRecord?, device: String? = nil,
                              customAuth: CustomAuthSessionState? = nil, pool: PoolRecord,
                              client: ClientRecord) async throws -> AuthOutcome {
        let username: String, salt: [UInt8], verifier: [UInt8], decoy: SRPDecoy?
        if let found, let password = found.password {
            (username, salt, verifier, decoy) = (found.username, password.salt, password.verifier, nil)
        } else {
            username = found?.username ?? decoys.decoyUsername(for: typed, pool: pool)
            salt = decoys.decoySalt(for: typed, pool: pool)
            verifier = decoys.decoyVerifier(for: typed, pool: pool)
            decoy = SRPDecoy(verifier: SRPEncoding.hexString(verifier), subject: found?.sub ?? decoys.decoySubject(for: typed, pool: pool))
        }
        let b = random.bytes(32)
        guard let bPublic = SRPServer.serverPublicValue(verifier: verifier, ephemeral: b) else {
            throw CognitoError.internalError("Degenerate SRP value; try again.")
        }
        let state = SRPSessionState(
            serverSecret: SRPEncoding.hexString(b), serverPublic: SRPEncoding.hexString(bPublic),
            clientPublic: SRPEncoding.hexString(a), username: username, decoy: decoy, customAuth: customAuth,
            deviceKey: device)
        let (secretBlock, session) = try authSessions.newAuthSession(
            .passwordVerifier, state: state, user: found?.password == nil ? nil : found, pool: pool, client: client,
            encoding: .secretBlock)
        try await store.insertAuthSession(session)
        return .challenge(.passwordVerifier, parameters: [
            "SALT": SRPEncoding.hexString(salt), "SRP_B": SRPEncoding.minimalHex(bPublic), "SECRET_BLOCK": secretBlock,
            "USERNAME": username, "USER_ID_FOR_SRP": username,
        ], session: nil)
    }

    /// PASSWORD_VERIFIER, second request: the client's signature is recomputed from the stored
    /// exchange and the user's verifier (outside any transaction) and compared in constant time;
    /// then the SECRET_BLOCK is used up whatever the outcome and the check is settled (a wrong
    /// signature counts towards the lockout): in one transaction, under the user's lock or — a
    /// right proof that only tokens can follow — without it. A decoy exchange does the same
    /// work with its decoy verifier and always fails like a wrong password. In a CUSTOM_AUTH
    /// sign-in a proved password goes back to DefineAuthChallenge instead of completing it.
    func verifySRPClaim(_ responses: [String: String], clientMetadata: [String: String]?, pool: PoolRecord,
                        client: ClientRecord) async throws -> AuthOutcome {
        let secretBlock = try AuthParameter.require("PASSWORD_CLAIM_SECRET_BLOCK", in: responses)
        let signatureText = try AuthParameter.require("PASSWORD_CLAIM_SIGNATURE", in: responses)
        let timestamp = try AuthParameter.require("TIMESTAMP", in: responses)
        let username = try AuthParameter.require(AuthParameter.username, in: responses)
        guard SRPTimestamp.isWellFormed(timestamp) else {
            throw CognitoError.invalidParameter("TIMESTAMP format should be EEE MMM d HH:mm:ss z yyyy in english.")
        }
        let (session, found) = try await store.read { transaction in
            let session = try await authSessions.readAuthSession(
                secretBlock, challenge: .passwordVerifier, as: SRPSessionState.self, pool: pool, client: client,
                in: transaction)
            let subject = session.record.userSub ?? session.state.decoy?.subject ?? ""
            return (session, try await transaction.userForSignIn(poolId: pool.id, sub: subject))
        }
        let user = found?.user
        try client.checkSecretHash(
            responses[AuthParameter.secretHash], usernames: [username] + (user.map { [$0.username, $0.sub] } ?? []))
        let verifier = session.state.decoy.flatMap { SRPEncoding.bytes(fromHex: $0.verifier) } ?? user?.password?.verifier
        let correct = isValidClaim(
            session.state, verifier: verifier, sub: user?.sub, responses: (signatureText, timestamp, username),
            secretBlock: secretBlock, pool: pool)
        // A right proof that needs no lock: the SECRET_BLOCK used up and the tokens' family
        // stored if the user still stands as read (`signInWithoutLock`); else the locked path.
        var consumed = false
        if correct, let found, session.state.decoy == nil, session.state.customAuth == nil,
            SignInCompletion.maySettleWithoutLock(found.user, standing: found.standing, pool: pool, now: time.now)
        {
            consumed = true
            if let result = try await completion.signInWithoutLock(
                found.user, standing: found.standing, pool: pool, client: client, usingUp: session.record)
            {
                return try await tokenFamilies.outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
            }
        }
        let result = try await store.transaction { [consumed] transaction -> FirstFactorResult? in
            if !consumed { try await authSessions.consumeAuthSession(session.record, in: transaction) }
            guard let user, session.state.decoy == nil else {
                return try await throttle.settleDecoySignIn(session.state.decoy?.subject ?? "", pool: pool, in: transaction)
            }
            // In a CUSTOM_AUTH sign-in the proved password is one step; DefineAuthChallenge decides what follows.
            guard session.state.customAuth == nil else {
                _ = try await completion.settlePasswordVerdict(user, correct: correct, in: transaction)
                return nil
            }
            return try await completion.settlePasswordCheck(
                user, correct: correct, password: nil, pool: pool, client: client,
                device: responses[AuthParameter.deviceKey] ?? session.state.deviceKey, in: transaction)
        }
        if let result { return try await tokenFamilies.outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client) }
        guard let customAuth = session.state.customAuth else { throw CognitoError.internalError() }
        return try await continueCustomAuth(
            customAuth.after(.passwordVerifier, correct: true), user: user, clientMetadata: clientMetadata, pool: pool,
            client: client)
    }

    /// Whether a PASSWORD_CLAIM_SIGNATURE proves the secret behind `verifier`: timestamp within
    /// five minutes of the server clock, answered for the same user, signature as the client
    /// half computes it (compared in constant time).
    private func isValidClaim(_ state: SRPSessionState, verifier: [UInt8]?, sub: String?,
                              responses: (signature: String, timestamp: String, username: String), secretBlock: String,
                              pool: PoolRecord) -> Bool {
        guard let verifier, let date = SRPTimestamp.parse(responses.timestamp),
            abs(date.timeIntervalSince(time.now)) <= 300,
            responses.username == state.username || responses.username == sub,
            let signature = Data(base64Encoded: responses.signature),
            let blockBytes = Data(base64Encoded: secretBlock),
            let key = SRPServer.sessionKey(
                clientPublic: SRPEncoding.bytes(fromHex: state.clientPublic) ?? [],
                serverPublic: SRPEncoding.bytes(fromHex: state.serverPublic) ?? [],
                verifier: verifier, ephemeral: SRPEncoding.bytes(fromHex: state.serverSecret) ?? [])
        else { return false }
        let expected = SRPDerivation.claimSignature(
            sessionKey: key, realm: SRPDerivation.poolName(ofPoolId: pool.id), identity: state.username,
            secretBlock: Array(blockBytes), timestamp: responses.timestamp)
        return ConstantTime.equals(expected, Array(signature))
    }
}
