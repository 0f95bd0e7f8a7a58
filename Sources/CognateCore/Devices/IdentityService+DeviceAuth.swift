import CognateProtocol
import Foundation

/// What a device's SRP exchange remembers between DEVICE_SRP_AUTH and DEVICE_PASSWORD_VERIFIER.
struct DeviceSRPSessionState: Codable, Sendable {
    var username: String
    var deviceKey: String
    var serverSecret: String?   // b (hex), once DEVICE_SRP_AUTH was answered
    var serverPublic: String?   // B (hex)
    var clientPublic: String?   // A (hex)
    /// PIN sign-in (DEVICE_PIN_AUTH): the claim is checked against the device's PIN verifier.
    var pin: Bool?
    /// The pending DEVICE_SRP_AUTH step this exchange answers (the hashes of its records): used
    /// up only by a right claim, so no one but the device can spend the user's step.
    var stepTokenHashes: [String]?
}

extension IdentityService {
    /// The user's device named by the sign-in's DEVICE_KEY, when the pool tracks devices and
    /// the device is confirmed (an unknown or foreign key is ignored, as a new device).
    func knownDevice(_ key: String?, of user: UserRecord, pool: PoolRecord,
                     in transaction: any StoreTransaction) async throws -> DeviceRecord? {
        guard pool.settings.deviceConfiguration != nil, let key, !key.isEmpty,
            let device = try await transaction.device(poolId: pool.id, key: key),
            device.userSub == user.sub, device.isConfirmed
        else { return nil }
        return device
    }

    /// A device receiving tokens for the first time in a pool that tracks devices: created
    /// unconfirmed with a new key (`<region>_<uuid>`) and group key, for ConfirmDevice.
    func trackNewDevice(of user: UserRecord, pool: PoolRecord,
                        in transaction: any StoreTransaction) async throws -> DeviceRecord? {
        guard pool.settings.deviceConfiguration != nil else { return nil }
        let now = time.now
        let device = DeviceRecord(
            deviceKey: "\(configuration.region)_\(random.uuid().lowercased())", poolId: pool.id, userSub: user.sub,
            groupKey: "-" + String(Base64URL.encode(random.bytes(6)).prefix(8)), createdAt: now, updatedAt: now)
        try await transaction.insertDevice(device)
        return device
    }

    /// DEVICE_SRP_AUTH: the device must prove its secret. The pending step is answered with the
    /// challenge's `Session`, or without one (clients such as pycognito send none): then it is
    /// found by user and device. Either way it lasts the session lifetime of the first factor
    /// that led here, and only a right DEVICE_PASSWORD_VERIFIER claim uses it up.
    func deviceChallenge(_ device: DeviceRecord, user: UserRecord, pool: PoolRecord, client: ClientRecord,
                         in transaction: any StoreTransaction) async throws -> AuthOutcome {
        let named = Self.deviceStepToken(pool: pool, user: user, deviceKey: device.deviceKey)
        let step = DeviceSRPSessionState(username: user.username, deviceKey: device.deviceKey)
        _ = try await transaction.consumeAuthSession(tokenHash: AuthSessions.hash(named))  // an earlier, unanswered one
        let session = try await openAuthSession(
            .deviceSrpAuth, state: step, user: user, pool: pool, client: client, encoding: .session, in: transaction)
        var byName = step
        byName.stepTokenHashes = [AuthSessions.hash(session)]
        _ = try await openAuthSession(
            .deviceSrpAuth, state: byName, user: user, pool: pool, client: client, encoding: .session, token: named,
            in: transaction)
        return .challenge(.deviceSrpAuth, parameters: ["USERNAME": user.username], session: session)
    }

    /// DEVICE_SRP_AUTH answered (USERNAME, DEVICE_KEY, SRP_A; `session` when the client sends
    /// it): DEVICE_PASSWORD_VERIFIER with the device's salt, `B` and a SECRET_BLOCK. The pending
    /// step stays until a right claim answers it.
    func answerDeviceSRPAuth(_ responses: [String: String], session: String?, pool: PoolRecord, client: ClientRecord)
        async throws -> AuthOutcome
    {
        try await openDevicePasswordVerifier(responses, pin: false, pool: pool, client: client) { user, deviceKey, transaction in
            let named = Self.deviceStepToken(pool: pool, user: user, deviceKey: deviceKey)
            let token = session.flatMap { $0.isEmpty ? nil : $0 } ?? named
            let pending = try await self.readAuthSession(
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
            guard let user = try await self.findUser(username, in: pool, transaction),
                let device = try await self.knownDevice(deviceKey, of: user, pool: pool, in: transaction)
            else { throw Self.deviceNotFound }
            guard let (salt, verifier) = Self.verifier(of: device, pin: pin) else {
                throw pin ? Self.pinNotRegistered : Self.deviceNotFound
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
            let secretBlock = try await self.openAuthSession(
                .devicePasswordVerifier, state: state, user: user, pool: pool, client: client, encoding: .secretBlock,
                in: transaction)
            return .challenge(.devicePasswordVerifier, parameters: [
                "SALT": salt, "SRP_B": SRPEncoding.minimalHex(bPublic), "SECRET_BLOCK": secretBlock,
                "USERNAME": user.username, "DEVICE_KEY": deviceKey,
            ], session: nil)
        }
    }

    /// The salt (hex) and verifier of the device's secret, or of its PIN.
    static func verifier(of device: DeviceRecord, pin: Bool) -> (salt: String, verifier: [UInt8])? {
        let pair = pin ? device.pin.map { ($0.salt, $0.verifier) } : device.salt.flatMap { salt in device.verifier.map { (salt, $0) } }
        guard let (salt, hex) = pair, let verifier = SRPEncoding.bytes(fromHex: hex) else { return nil }
        return (salt, verifier)
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
        let result = try await transaction { transaction in
            let pending = try await self.readAuthSession(
                secretBlock, challenge: .devicePasswordVerifier, as: DeviceSRPSessionState.self, pool: pool, client: client,
                in: transaction)
            try await self.consumeAuthSession(pending.record, in: transaction)
            // The user's lock first: answers for one user are judged one at a time, each reading
            // the device (and its count of wrong PINs) as the one before left it, so no answer
            // is judged past the PIN's attempt limit or on a device that limit forgot.
            guard let sub = pending.record.userSub,
                let user = try await transaction.user(poolId: pool.id, sub: sub, forUpdate: true),
                pending.state.deviceKey == deviceKey,
                var device = try await self.knownDevice(deviceKey, of: user, pool: pool, in: transaction),
                let (_, verifier) = Self.verifier(of: device, pin: pending.state.pin == true)
            else { throw AuthSessions.invalid }
            let named = responses[AuthParameter.username].map { [$0] } ?? []
            try client.checkSecretHash(responses[AuthParameter.secretHash], usernames: named + [user.username, user.sub])
            guard let date = SRPTimestamp.parse(timestamp), abs(date.timeIntervalSince(now)) <= 300,
                let blockBytes = Data(base64Encoded: secretBlock), let claimed = Data(base64Encoded: signature),
                let key = SRPServer.sessionKey(
                    clientPublic: SRPEncoding.bytes(fromHex: pending.state.clientPublic ?? "") ?? [],
                    serverPublic: SRPEncoding.bytes(fromHex: pending.state.serverPublic ?? "") ?? [],
                    verifier: verifier, ephemeral: SRPEncoding.bytes(fromHex: pending.state.serverSecret ?? "") ?? [])
            else { throw CognitoError.incorrectCredentials }
            let expected = SRPDerivation.claimSignature(
                sessionKey: key, realm: device.groupKey, identity: deviceKey, secretBlock: Array(blockBytes), timestamp: timestamp)
            guard ConstantTime.equals(expected, Array(claimed)) else {
                // A wrong PIN is counted (and the session used up) even though the request fails.
                if pending.state.pin == true { try await self.refuseWrongPin(device, pool: pool, at: now, in: transaction) }
                throw CognitoError.incorrectCredentials
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
            try await transaction.updateDevice(device)
            return try await self.completeFirstFactor(
                user, pool: pool, client: client, askingForMfa: false, device: deviceKey, deviceProved: true,
                in: transaction)
        }
        return try await outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
    }

    /// The name of a pending DEVICE_SRP_AUTH step: derived from pool, user and device, so an
    /// answer without Session finds it; only the server can create it (after a first factor).
    static func deviceStepToken(pool: PoolRecord, user: UserRecord, deviceKey: String) -> String {
        "device-srp|\(pool.id)|\(user.sub)|\(deviceKey)"
    }
}
