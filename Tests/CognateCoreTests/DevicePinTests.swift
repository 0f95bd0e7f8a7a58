import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// RegisterDevicePin needs fresh proof of the user, and the user is told of every new PIN.
@Suite struct DevicePinTests {
    /// A pool that tracks devices and allows PINs, a confirmed user, and a sign-in that made
    /// and confirmed a device: (client, tokens of that sign-in, the device key).
    private func signedInOnDevice(_ env: TestEnvironment) async throws
        -> (UserPoolClientType, AuthenticationResultType, String)
    {
        let pool = try await env.service.pools.createUserPool(CreateUserPoolRequest(
            poolName: "pins", autoVerifiedAttributes: [.email],
            deviceConfiguration: DeviceConfigurationType(challengeRequiredOnNewDevice: true))).userPool!
        _ = try await env.service.pools.setUserPoolPinPolicy(SetUserPoolPinPolicyRequest(userPoolId: pool.id!, pinPolicy: PinPolicy()))
        let client = try await env.client(pool: pool.id!)
        try await env.confirmedUser("alice", client: client)
        let tokens = try await env.passwordSignIn("alice", client: client)
        let deviceKey = try #require(tokens.newDeviceMetadata?.deviceKey)
        _ = try await env.service.devices.confirmDevice(ConfirmDeviceRequest(
            accessToken: tokens.accessToken!, deviceKey: deviceKey, deviceSecretVerifierConfig: Self.verifierConfig))
        return (client, tokens, deviceKey)
    }

    /// Any SRP verifier will do: the server never computes with it here.
    private static let verifierConfig = DeviceSecretVerifierConfigType(
        passwordVerifier: Data([0x02] + [UInt8](repeating: 0x5a, count: 383)).base64EncodedString(),
        salt: Data(repeating: 7, count: 16).base64EncodedString())

    private func register(_ env: TestEnvironment, _ accessToken: String, _ deviceKey: String) async throws {
        _ = try await env.service.devices.registerDevicePin(RegisterDevicePinRequest(
            accessToken: accessToken, deviceKey: deviceKey, pinVerifierConfig: Self.verifierConfig))
    }

    @Test func aFreshSignInRegistersAPinAndTheUserIsTold() async throws {
        try await TestEnvironment.with { env in
            let (_, tokens, deviceKey) = try await signedInOnDevice(env)
            env.time.advance(by: 299)
            try await register(env, tokens.accessToken!, deviceKey)
            let notice = try #require(env.delivery.messages.last)
            #expect(notice.purpose == "pinRegistered")
            #expect(notice.destination == "u@example.com" && notice.code == nil)
            #expect(notice.body.contains("A PIN was set"))
        }
    }

    @Test func aTokenOfAnOldSignInCannotRegisterAPinEvenRefreshed() async throws {
        try await TestEnvironment.with { env in
            let (client, tokens, deviceKey) = try await signedInOnDevice(env)
            env.time.advance(by: 301)
            await expectCognitoError(.notAuthorized) { try await register(env, tokens.accessToken!, deviceKey) }
            let refreshed = try await env.service.signIn.initiateAuth(InitiateAuthRequest(
                authFlow: .refreshTokenAuth,
                authParameters: ["REFRESH_TOKEN": tokens.refreshToken!, "DEVICE_KEY": deviceKey],
                clientId: client.clientId!)).authenticationResult!
            await expectCognitoError(.notAuthorized) { try await register(env, refreshed.accessToken!, deviceKey) }
            #expect(!env.delivery.messages.contains { $0.purpose == "pinRegistered" })
        }
    }
}
