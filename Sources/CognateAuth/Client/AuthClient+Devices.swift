import CognateProtocol
import Foundation

extension AuthClient {
    /// The signed-in user's devices (`ListDevices`).
    public func fetchDevices() async throws -> [AuthDevice] {
        let response = try await withAccessToken { accessToken in
            try await channel.send(CognitoAPI.ListDevices.self, ListDevicesRequest(accessToken: accessToken, limit: 60))
        }
        return (response.devices ?? []).compactMap { device in
            guard let key = device.deviceKey else { return nil }
            var attributes: [String: String] = [:]
            for attribute in device.deviceAttributes ?? [] { attributes[attribute.name] = attribute.value }
            return AuthDevice(
                deviceKey: key, name: attributes["device_name"],
                remembered: attributes["dev:device_remembered_status"] == "remembered",
                lastAuthenticated: device.deviceLastAuthenticatedDate)
        }
    }

    /// Remembers this device (`UpdateDeviceStatus`): its sign-ins then skip MFA. Needed in
    /// pools that remember devices only when the user asks.
    public func rememberDevice() async throws {
        let device = try await requireDevice()
        try await withAccessToken { accessToken in
            _ = try await channel.send(CognitoAPI.UpdateDeviceStatus.self, UpdateDeviceStatusRequest(
                accessToken: accessToken, deviceKey: device.deviceKey, deviceRememberedStatus: .remembered))
        }
    }

    /// Forgets this device on the server (`ForgetDevice`: the sessions issued to it end) and
    /// here; the next sign-in registers it anew.
    public func forgetDevice() async throws {
        let device = try await requireDevice()
        try await withAccessToken { accessToken in
            _ = try await channel.send(
                CognitoAPI.ForgetDevice.self, ForgetDeviceRequest(accessToken: accessToken, deviceKey: device.deviceKey))
        }
        _ = try await updateRecord { $0.device = nil }
    }

    /// Forgets one of the user's devices, as ``fetchDevices()`` lists them (a lost phone, an old
    /// laptop): `ForgetDevice` ends the sessions issued to it. When it is this profile's own
    /// device it is forgotten here too, as ``forgetDevice()`` does.
    /// - Throws: ``AuthError`` — `resourceNotFound` for a key the pool does not know,
    ///   `notSignedIn`.
    public func forgetDevice(deviceKey: String) async throws {
        try await withAccessToken { accessToken in
            _ = try await channel.send(
                CognitoAPI.ForgetDevice.self, ForgetDeviceRequest(accessToken: accessToken, deviceKey: deviceKey))
        }
        _ = try await updateRecord { record in
            if record.device?.deviceKey == deviceKey { record.device = nil }
        }
    }

    /// Deregisters this profile from this device: the server forgets the device (ending every
    /// session issued to it) and revokes the profile's refresh token, then everything the
    /// profile holds here — tokens, codes, registration progress, the device secret — is wiped.
    /// The local part happens even when the server cannot be reached, or when the profile is
    /// signed out: then the server cannot be asked (`localOnly(.notSignedIn)`) and keeps the
    /// device until an administrator forgets it — sign in first (a PIN will do) to end it there.
    /// A failed ForgetDevice does not skip RevokeToken; a refused refresh (the session had
    /// ended elsewhere) means the device was not forgotten (`localOnly(.sessionExpired)`).
    /// - Returns: `.complete` only when the server did both parts; `localOnly` says why not.
    /// - Throws: ``AuthError/storage(_:)`` when the store cannot be read (a cancelled biometry
    ///   prompt): nothing is sent and nothing wiped, since what to end on the server is
    ///   unknown; try again once it can be read. `CancellationError` when the task was
    ///   cancelled (the local wipe has happened all the same).
    @discardableResult
    public func deregister() async throws -> SignOutResult {
        let record = try await loadRecord()
        var outcome = SignOutResult.complete
        var cancelled = false
        if record.tokens == nil, record.device != nil { outcome = .localOnly(.notSignedIn) }
        if let tokens = record.tokens {
            if let device = record.device {
                do {
                    try await withAccessToken { accessToken in
                        _ = try await channel.send(
                            CognitoAPI.ForgetDevice.self, ForgetDeviceRequest(accessToken: accessToken, deviceKey: device.deviceKey))
                    }
                } catch {
                    (outcome, cancelled) = Self.serverOutcome(of: error, outcome)
                }
            }
            if !cancelled {
                // A refresh meanwhile may have rotated the refresh token: revoke the newest.
                let refreshToken = (try? await loadRecord())?.tokens?.refreshToken ?? tokens.refreshToken
                do {
                    _ = try await channel.send(CognitoAPI.RevokeToken.self, RevokeTokenRequest(
                        token: refreshToken, clientId: configuration.clientId, clientSecret: configuration.clientSecret))
                } catch {
                    let (next, stopped) = Self.serverOutcome(of: error, outcome)
                    (outcome, cancelled) = (next, cancelled || stopped)
                }
            }
        }
        try await clearProfile(keepingDevice: false)
        if cancelled { throw CancellationError() }
        return outcome
    }

    /// The device this profile is registered as, if any.
    public func currentDevice() async throws -> RememberedDevice? { try await loadRecord().device }

    /// The DEVICE_KEY a sign-in as `name` sends: this profile's device, when it is registered
    /// for the user who signs in with that name. Another user's device is never offered (the
    /// profile may still hold a signed-out user's device and PIN).
    func deviceKeyParameter(forSignInName name: String) async -> [String: String] {
        guard let key = (try? await loadRecord())?.deviceKey(forSignInName: name) else { return [:] }
        return ["DEVICE_KEY": key]
    }

    /// Registers the device a sign-in's tokens announced (NewDeviceMetadata): a random secret,
    /// its SRP verifier to the pool (`ConfirmDevice`), the secret kept with the tokens. A
    /// failure costs nothing but the device (the sign-in has succeeded).
    func registerNewDevice(_ metadata: NewDeviceMetadataType, tokens: AuthTokens, signInName: String?) async {
        let accessToken = tokens.accessToken
        guard let key = metadata.deviceKey, let group = metadata.deviceGroupKey else { return }
        var generator = SystemRandomNumberGenerator()
        let password = Data((0..<40).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
        do {
            let verifier = try await OffActor.run {
                SRPClient.deviceVerifier(deviceGroupKey: group, deviceKey: key, devicePassword: password)
            }
            _ = try await channel.send(CognitoAPI.ConfirmDevice.self, ConfirmDeviceRequest(
                accessToken: accessToken, deviceKey: key,
                deviceSecretVerifierConfig: DeviceSecretVerifierConfigType(
                    passwordVerifier: verifier.passwordVerifier, salt: verifier.salt),
                deviceName: configuration.deviceName))
            _ = try await updateRecord { $0.device = RememberedDevice(
                deviceKey: key, groupKey: group, password: password, owner: DeviceOwner(tokens.user, signInName: signInName)) }
        } catch {
            return
        }
    }

    /// DEVICE_SRP_AUTH, then DEVICE_PASSWORD_VERIFIER: this device proves its secret.
    func deviceExchange(username: String) async throws -> AuthResponse {
        let record = try await loadRecord()
        guard let device = record.device, record.deviceKey(forSignInName: username) != nil else {
            throw AuthError.invalidState("The pool asks for this device's proof, but no device is registered here.")
        }
        let srp = try await OffActor.run { SRPClient() }
        let started = try await channel.send(CognitoAPI.RespondToAuthChallenge.self, RespondToAuthChallengeRequest(
            clientId: configuration.clientId, challengeName: .deviceSrpAuth,
            challengeResponses: withSecretHash(
                ["USERNAME": username, "DEVICE_KEY": device.deviceKey, "SRP_A": srp.publicValueHex], username: username)))
        return try await answerDevicePasswordVerifier(
            AuthResponse(started), srp: srp, device: device, secret: device.password, username: username)
    }

    /// Answers DEVICE_PASSWORD_VERIFIER (in `started`) with the claim of `secret` — the
    /// device's own, or the one derived from its PIN — for the device's group key and key.
    func answerDevicePasswordVerifier(
        _ started: AuthResponse, srp: SRPClient, device: RememberedDevice, secret: String, username: String
    ) async throws -> AuthResponse {
        let parameters = started.parameters
        guard started.challengeName == .devicePasswordVerifier, let salt = parameters["SALT"],
            let serverPublic = parameters["SRP_B"], let secretBlock = parameters["SECRET_BLOCK"]
        else { throw AuthError.invalidResponse("The device step was not answered with DEVICE_PASSWORD_VERIFIER.") }
        let claim: SRPClient.Claim
        do {
            claim = try await OffActor.run {
                try srp.passwordClaim(
                    realm: device.groupKey, identity: device.deviceKey, secret: secret, saltHex: salt,
                    serverPublicHex: serverPublic, secretBlock: secretBlock)
            }
        } catch {
            throw AuthError.invalidResponse("DEVICE_PASSWORD_VERIFIER parameters are unusable: \(error)")
        }
        let answered = try await channel.send(CognitoAPI.RespondToAuthChallenge.self, RespondToAuthChallengeRequest(
            clientId: configuration.clientId, challengeName: .devicePasswordVerifier,
            challengeResponses: withSecretHash([
                "USERNAME": username, "DEVICE_KEY": device.deviceKey, "PASSWORD_CLAIM_SECRET_BLOCK": secretBlock,
                "PASSWORD_CLAIM_SIGNATURE": claim.signature, "TIMESTAMP": claim.timestamp,
            ], username: username)))
        return AuthResponse(answered)
    }

    func requireDevice() async throws -> RememberedDevice {
        guard let device = try await loadRecord().device else {
            throw AuthError.invalidState("This profile has no registered device (the pool does not track devices, or it was forgotten).")
        }
        return device
    }
}
