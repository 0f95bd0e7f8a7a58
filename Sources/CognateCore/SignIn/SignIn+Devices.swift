import CognateProtocol
import Foundation

// PIN sign-in (Cognate's own extension, for apps that sign users in on a registered device
// with a short PIN).
//
// Contract: the PIN never leaves the device. The device derives a secret from it with a
// 256-bit key it keeps (HMAC-SHA256(key, PIN)) and registers only the SRP verifier of that
// secret, beside the verifier of its device secret. Signing in with the PIN is device SRP
// against that verifier (DEVICE_PIN_AUTH → DEVICE_PASSWORD_VERIFIER), a first factor of its
// own: possession of the device's key and knowledge of the PIN; no password and no MFA. The
// pool's ``PinPolicy`` says how PINs must look (the device checks; the server never sees
// one) and how many wrong PINs in a row forget the device and end every session issued to it.

extension SignIn {
    /// DEVICE_SRP_AUTH answered (USERNAME, DEVICE_KEY, SRP_A; `session` when the client sends
    /// it): DEVICE_PASSWORD_VERIFIER with the device's salt, `B` and a SECRET_BLOCK. The pending
    /// step stays until a right claim answers it.
    func answerDeviceSRPAuth(_ responses: [String: String], session: String?, pool: PoolRecord, client: ClientRecord)
        async throws -> AuthOutcome
    {
        try await openDevicePasswordVerifier(responses, pin: false, pool: pool, client: client) { user, deviceKey, transaction in
            let named = DeviceTrust.deviceStepToken(pool: pool, user: user, deviceKey: deviceKey)
            let token = session.flatMap { $0.isEmpty ? nil : $0 } ?? named
            let pending = try await authSessions.readAuthSession(
                token, challenge: .deviceSrpAuth, as: DeviceSRPSessionState.self, pool: pool, client: client, in: transaction)
            guard pending.record.userSub == user.sub, pending.state.deviceKey == deviceKey else { throw AuthSessions.invalid }
            return [AuthSessions.hash(named)] + (pending.state.stepTokenHashes ?? [AuthSessions.hash(token)])
        }
    }

    /// The DEVICE_PASSWORD_VERIFIER step for the device that `parameters` name (USERNAME,
    /// DEVICE_KEY, SRP_A), over its secret's verifier or — `pin` — its PIN's. `admit` checks, in
    /// the transaction, that this step may be taken now, and names the records of the pending
    /// step a right claim uses up.
    func openDevicePasswordVerifier(
        _ parameters: [String: String], pin: Bool, pool: PoolRecord, client: ClientRecord,
        admit: @escaping @Sendable (UserRecord, String, any StoreTransaction) async throws -> [String]
    ) async throws -> AuthOutcome {
        let username = try AuthParameter.require(AuthParameter.username, in: parameters)
        let deviceKey = try AuthParameter.require(AuthParameter.deviceKey, in: parameters)
        let a = try Self.clientPublicValue(parameters)
        let b = random.bytes(32)
        return try await store.write { transaction in
            guard let user = try await users.findUser(username, in: pool, transaction),
                let device = try await deviceTrust.knownDevice(deviceKey, of: user, pool: pool, in: transaction)
            else { throw DeviceManagement.deviceNotFound }
            guard let (salt, verifier) = DeviceTrust.verifier(of: device, pin: pin) else {
                throw pin ? DeviceTrust.pinNotRegistered : DeviceManagement.deviceNotFound
            }
            try client.checkSecretHash(parameters[AuthParameter.secretHash], usernames: [username, user.username, user.sub])
            let step = try await admit(user, deviceKey, transaction)
            guard let bPublic = SRPServer.serverPublicValue(verifier: verifier, ephemeral: b) else {
                throw CognitoError.internalError("Degenerate SRP value; try again.")
            }
            let state = DeviceSRPSessionState(
                username: user.username, deviceKey: deviceKey, serverSecret: SRPEncoding.hexString(b),
                serverPublic: SRPEncoding.hexString(bPublic), clientPublic: SRPEncoding.hexString(a), pin: pin ? true : nil,
                stepTokenHashes: step.isEmpty ? nil : step)
            let secretBlock = try await authSessions.openAuthSession(
                .devicePasswordVerifier, state: state, user: user, pool: pool, client: client, encoding: .secretBlock,
                in: transaction)
            return .challenge(.devicePasswordVerifier, parameters: [
                "SALT": salt, "SRP_B": SRPEncoding.minimalHex(bPublic), "SECRET_BLOCK": secretBlock,
                "USERNAME": user.username, "DEVICE_KEY": deviceKey,
            ], session: nil)
        }
    }

    /// DEVICE_PASSWORD_VERIFIER answered: the claim is checked as a password's is, with the
    /// device's verifier (its PIN's in PIN sign-in) and its group key and key as realm and
    /// identity; a right one signs the user in on this device. A wrong PIN is counted (see
    /// ``refuseWrongPin(_:pool:at:in:)``).
    func answerDevicePasswordVerifier(_ responses: [String: String], clientMetadata: [String: String]?, pool: PoolRecord,
                                      client: ClientRecord) async throws -> AuthOutcome {
        let secretBlock = try AuthParameter.require("PASSWORD_CLAIM_SECRET_BLOCK", in: responses)
        let signature = try AuthParameter.require("PASSWORD_CLAIM_SIGNATURE", in: responses)
        let timestamp = try AuthParameter.require("TIMESTAMP", in: responses)
        let deviceKey = try AuthParameter.require(AuthParameter.deviceKey, in: responses)
        let now = time.now
        let result = try await store.transaction { transaction in
            let pending = try await authSessions.readAuthSession(
                secretBlock, challenge: .devicePasswordVerifier, as: DeviceSRPSessionState.self, pool: pool, client: client,
                in: transaction)
            try await authSessions.consumeAuthSession(pending.record, in: transaction)
            // The user's lock first: answers for one user are judged one at a time, each reading
            // the device (and its count of wrong PINs) as the one before left it, so no answer
            // is judged past the PIN's attempt limit or on a device that limit forgot.
            guard let sub = pending.record.userSub,
                let user = try await transaction.user(poolId: pool.id, sub: sub, forUpdate: true),
                pending.state.deviceKey == deviceKey,
                var device = try await deviceTrust.knownDevice(deviceKey, of: user, pool: pool, in: transaction),
                let (_, verifier) = DeviceTrust.verifier(of: device, pin: pending.state.pin == true)
            else { throw AuthSessions.invalid }
            let named = responses[AuthParameter.username].map { [$0] } ?? []
            try client.checkSecretHash(responses[AuthParameter.secretHash], usernames: named + [user.username, user.sub])
            guard let date = SRPTimestamp.parse(timestamp), abs(date.timeIntervalSince(now)) <= 300,
                let blockBytes = Data(base64Encoded: secretBlock), let claimed = Data(base64Encoded: signature),
                let key = SRPServer.sessionKey(
                    clientPublic: SRPEncoding.bytes(fromHex: pending.state.clientPublic ?? "") ?? [],
                    serverPublic: SRPEncoding.bytes(fromHex: pending.state.serverPublic ?? "") ?? [],
                    verifier: verifier, ephemeral: SRPEncoding.bytes(fromHex: pending.state.serverSecret ?? "") ?? [])
            else { throw CommitAndFail(.incorrectCredentials) }   // the secret block used up all the same
            let expected = SRPDerivation.claimSignature(
                sessionKey: key, realm: device.groupKey, identity: deviceKey, secretBlock: Array(blockBytes), timestamp: timestamp)
            guard ConstantTime.equals(expected, Array(claimed)) else {
                // A wrong PIN is counted (and the session used up) even though the request fails.
                if pending.state.pin == true { try await self.refuseWrongPin(device, pool: pool, at: now, in: transaction) }
                throw CommitAndFail(.incorrectCredentials)
            }
            if let step = pending.state.stepTokenHashes {
                // The pending step is used up by this right claim; if another right claim did so
                // first, this one is late.
                var usedUp = false
                for hash in step where try await transaction.consumeAuthSession(tokenHash: hash) { usedUp = true }
                guard usedUp else { throw AuthSessions.invalid }
            }
            device.lastAuthenticatedAt = now
            device.updatedAt = now
            if pending.state.pin == true { device.pin?.failures = 0 }
            try await transaction.updateDevice(device)
            return try await completion.completeFirstFactor(
                user, pool: pool, client: client, askingForMfa: false, device: deviceKey, deviceProved: true,
                in: transaction)
        }
        return try await tokenFamilies.outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
    }
}

extension SignIn {
    /// DEVICE_PIN_AUTH (USERNAME, DEVICE_KEY, SRP_A): DEVICE_PASSWORD_VERIFIER over the
    /// device's PIN verifier.
    func startPinAuth(_ parameters: [String: String], pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        guard pool.pinPolicy != nil else { throw DeviceTrust.pinSignInOff }
        return try await openDevicePasswordVerifier(parameters, pin: true, pool: pool, client: client) { _, _, _ in [] }
    }

    /// A wrong PIN, counted on the device (the user locked) since the PIN was registered or
    /// last right; the policy's `maximumAttempts`-th in a row forgets the device and ends its
    /// sessions. Either way the count is committed and the attempt refused.
    func refuseWrongPin(_ device: DeviceRecord, pool: PoolRecord, at now: Date, in transaction: any StoreTransaction)
        async throws -> Never
    {
        let allowed = pool.pinPolicy?.maximumAttempts ?? 1
        var device = device
        let failures = (device.pin?.failures ?? 0) + 1
        guard failures < allowed else {
            try await transaction.deleteDevice(poolId: pool.id, key: device.deviceKey)
            try await transaction.revokeTokenFamilies(poolId: pool.id, deviceKey: device.deviceKey, at: now)
            throw CommitAndFail(CognitoError.notAuthorized(DeviceTrust.deviceForgottenMessage))
        }
        device.pin?.failures = failures
        device.updatedAt = now
        try await transaction.updateDevice(device)
        let left = allowed - failures
        throw CommitAndFail(CognitoError.notAuthorized("Incorrect PIN. \(left) attempt\(left == 1 ? "" : "s") left."))
    }
}
