import CognateAuth
import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// Remembered devices through the SDK: registered on the first sign-in, proved by SRP on the
/// next ones (skipping MFA once remembered), listed and forgotten.
struct DeviceTests {
    @Test func theFirstSignInRegistersTheDeviceAndLaterOnesProveIt() async throws {
        try await LiveServer.with { live in
            let pool = try await Self.devicePool(live, promptUser: true)
            let app = try await live.makeClient(pool: pool, secret: true)
            let client = live.authClient(pool: pool, client: app)
            let email = uniqueEmail("device")
            try await live.confirmedUser(client, username: email, email: email)
            guard case .signedIn = try await client.signIn(username: email, password: "Passw0rd1") else {
                Issue.record("expected signedIn")
                return
            }
            let device = try #require(try await client.currentDevice())
            #expect(!"\(device)".contains("password"))
            var devices = try await client.fetchDevices()
            #expect(devices.map(\.deviceKey) == [device.deviceKey] && devices.first?.remembered == false)
            #expect(devices.first?.name == "CognateAuth")

            // MFA on: a device not yet remembered proves itself after the code; once remembered, instead of it.
            let setup = try await client.setUpTOTP()
            try await client.verifyTOTPSetup(code: Self.code(setup))
            try await client.signOut()
            #expect(try await client.signIn(username: email, password: "Passw0rd1")
                == .mfaCode(MFACodeChallenge(kind: .totp, destination: nil)))
            guard case .signedIn = try await client.confirmSignIn(mfaCode: Self.code(setup, offset: 1)) else {
                Issue.record("expected signedIn after the code and the device's proof")
                return
            }
            #expect(try await client.currentDevice() == device)   // the same device, not a new one
            try await client.rememberDevice()
            devices = try await client.fetchDevices()
            #expect(devices.first?.remembered == true)
            try await client.signOut()
            guard case .signedIn = try await client.signIn(username: email, password: "Passw0rd1", flow: .password) else {
                Issue.record("a remembered device skips MFA")
                return
            }
            let claims = try Self.accessClaims(try await client.currentSession().accessToken)
            #expect(claims["device_key"] as? String == device.deviceKey)

            try await client.forgetDevice()
            #expect(try await client.currentDevice() == nil)
            await expectAuthError({ _ = try await client.fetchDevices() }) {
                if case .sessionExpired = $0 { true } else if case .notAuthorized = $0 { true } else { false }
            }
        }
    }

    /// Deregistering wipes the profile here and ends it on the server; offline, the wipe still
    /// happens and the app is told the server was not.
    @Test func deregisteringWipesTheProfileAndForgetsTheDevice() async throws {
        try await LiveServer.with { live in
            let pool = try await Self.devicePool(live, promptUser: false)
            let app = try await live.makeClient(pool: pool)
            let store = InMemoryTokenStore()
            let client = live.authClient(pool: pool, client: app, store: store)
            let email = uniqueEmail("deregister")
            try await live.confirmedUser(client, username: email, email: email)
            _ = try await client.signIn(username: email, password: "Passw0rd1")
            let refreshToken = try await client.currentSession().refreshToken
            let device = try #require(try await client.currentDevice())
            #expect(try await client.deregister().signedOutOnServer)
            #expect(await store.load(profile: "default") == nil)
            let forgotten = try await live.server.store.read { try await $0.device(poolId: pool, key: device.deviceKey) }
            #expect(forgotten == nil)
            await #expect(throws: CognitoError.revokedRefreshToken) {
                _ = try await live.service.signIn.initiateAuth(InitiateAuthRequest(
                    authFlow: .refreshTokenAuth, authParameters: ["REFRESH_TOKEN": refreshToken], clientId: app.id))
            }

            // Offline: the local wipe happens, the server part is reported as not done.
            let offline = AuthClient(configuration: live.configuration(
                pool: pool, client: app, store: store, transport: UnreachableTransport()))
            _ = try await client.signIn(username: email, password: "Passw0rd1")
            let result = try await offline.deregister()
            #expect(!result.signedOutOnServer)
            #expect(await store.load(profile: "default") == nil)
        }
    }

    /// Any listed device can be forgotten (a lost phone): its sessions end, this device and
    /// its session stay. The groups the ID token names are the user's.
    @Test func anotherListedDeviceCanBeForgotten() async throws {
        try await LiveServer.with { live in
            let pool = try await Self.devicePool(live, promptUser: false)
            let app = try await live.makeClient(pool: pool)
            let here = live.authClient(pool: pool, client: app)
            let phone = live.authClient(pool: pool, client: app)   // another store: another device
            let email = uniqueEmail("lost")
            try await live.confirmedUser(here, username: email, email: email)
            _ = try await live.service.userAdministration.createGroup(CreateGroupRequest(groupName: "clinicians", userPoolId: pool))
            _ = try await live.service.userAdministration.adminAddUserToGroup(AdminAddUserToGroupRequest(
                userPoolId: pool, username: email, groupName: "clinicians"))
            guard case .signedIn(let user) = try await here.signIn(username: email, password: "Passw0rd1"),
                case .signedIn = try await phone.signIn(username: email, password: "Passw0rd1")
            else {
                Issue.record("expected both signed in")
                return
            }
            #expect(user.groups == ["clinicians"])
            let mine = try #require(try await here.currentDevice())
            let lost = try #require(try await phone.currentDevice())
            #expect(Set(try await here.fetchDevices().map(\.deviceKey)) == [mine.deviceKey, lost.deviceKey])

            try await here.forgetDevice(deviceKey: lost.deviceKey)
            #expect(try await here.fetchDevices().map(\.deviceKey) == [mine.deviceKey])
            #expect(try await here.currentDevice() == mine)
            _ = try await here.refreshSession()
            await expectAuthError({ _ = try await phone.refreshSession() }) {
                if case .sessionExpired = $0 { true } else { false }
            }
        }
    }

    private static func devicePool(_ live: LiveServer, promptUser: Bool) async throws -> String {
        let pool = try await live.makePool(
            emailSignIn: true,
            devices: DeviceConfigurationType(challengeRequiredOnNewDevice: true, deviceOnlyRememberedOnUserPrompt: promptUser))
        _ = try await live.service.pools.setUserPoolMfaConfig(SetUserPoolMfaConfigRequest(
            userPoolId: pool, softwareTokenMfaConfiguration: SoftwareTokenMfaConfigType(enabled: true),
            mfaConfiguration: .optional))
        return pool
    }

    private static func code(_ setup: TOTPSetup, offset: Int64 = 0) -> String {
        TOTP.code(secret: Base32.decode(setup.sharedSecret) ?? [], step: TOTP.step(at: Date()) + offset)
    }

    private static func accessClaims(_ token: String) throws -> [String: Any] {
        let part = String(token.split(separator: ".")[1])
        let data = try #require(Base64URL.decode(part))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
