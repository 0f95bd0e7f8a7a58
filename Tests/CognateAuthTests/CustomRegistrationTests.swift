import CognateAuth
import CognateProtocol
import Foundation
import Testing

/// Custom registration through the SDK against a live server and a real webhook function
/// (TestFunctions' bank activation): data → the function's challenge → the answer → the
/// account created, signed in, with the function's information; then a PIN, as the
/// PIN-protected banking journey continues.
struct CustomRegistrationTests {
    @Test func aChallengeAnsweredCreatesTheAccountSignedInReadyForAPIN() async throws {
        try await LiveServer.with { live in
            try await TestFunctions.withCustomRegistration(live) { arn in
                let (pool, app) = try await Self.pool(live, function: arn)
                let client = live.authClient(pool: pool, client: app)
                let flow = RegistrationFlow(client: client)
                let email = uniqueEmail("bank")
                var step = try await flow.startCustomRegistration(data: #"{"contract":"C-1001","email":"\#(email)"}"#)
                guard case .customChallenge(let data) = step else {
                    Issue.record("expected the function's challenge, got \(step)")
                    return
                }
                #expect(data == #"{"question":"The last four digits of your card"}"#)
                step = try await flow.answerCustomChallenge("1111")
                guard case .customChallenge(let retry) = step else {
                    Issue.record("a wrong answer should bring the question again, got \(step)")
                    return
                }
                #expect(retry?.contains("retry") == true)
                step = try await flow.answerCustomChallenge("4242")
                #expect(step == .complete)
                #expect(await flow.customInformation == #"{"welcome":"C-1001"}"#)
                let user = try await client.currentSession().user
                #expect(user.username == "contract-C-1001")
                #expect(user.attributes["email"] == email)
                #expect(user.attributes["email_verified"] == "true")

                // The new account has no password; the device it was registered on gets a PIN.
                try await client.registerPIN("24680")
                try await client.signOut()
                guard case .signedIn(let again) = try await client.signIn(withPIN: "24680") else {
                    Issue.record("expected the PIN to sign in")
                    return
                }
                #expect(again.userId == user.userId)
                await expectAuthError({ _ = try await client.signIn(username: "contract-C-1001", password: "Passw0rd1") }) {
                    $0 == .notAuthorized("Incorrect username or password.")
                }

                // The same contract again: the account exists.
                let second = live.authClient(pool: pool, client: app)
                guard case .challenge = try await second.startCustomRegistration(
                    data: #"{"contract":"C-1001","email":"\#(email)"}"#)
                else {
                    Issue.record("expected the challenge")
                    return
                }
                await expectAuthError({ _ = try await second.respondToCustomRegistration(data: "4242") }) {
                    if case .usernameExists = $0 { return true } else { return false }
                }
            }
        }
    }

    @Test func refusalsComeBackTypedAndNothingIsLeftPending() async throws {
        try await LiveServer.with { live in
            try await TestFunctions.withCustomRegistration(live) { arn in
                let (pool, app) = try await Self.pool(live, function: arn)
                let client = live.authClient(pool: pool, client: app)
                let email = uniqueEmail("bank")
                // The function's own message.
                await expectAuthError({
                    _ = try await client.startCustomRegistration(data: #"{"contract":"C-0000","email":"\#(email)"}"#)
                }) { $0 == .userLambdaValidation("CustomRegistration failed with error Unknown contract..") }
                // Refused outright.
                await expectAuthError({ _ = try await client.startCustomRegistration(data: "not json") }) {
                    $0 == .notAuthorized("Registration failed.")
                }
                // The third wrong answer, and the function fails the registration; nothing is pending after.
                let flow = RegistrationFlow(client: client)
                _ = try await flow.startCustomRegistration(data: #"{"contract":"C-2002","email":"\#(email)"}"#)
                _ = try await flow.answerCustomChallenge("1")
                _ = try await flow.answerCustomChallenge("2")
                await expectAuthError({ _ = try await flow.answerCustomChallenge("3") }) {
                    $0 == .notAuthorized("Registration failed.")
                }
                #expect(await flow.step == .signUp(missingAttributes: []))
                await expectAuthError({ _ = try await client.respondToCustomRegistration(data: "4242") }) {
                    if case .invalidState = $0 { return true } else { return false }
                }
                await expectAuthError({ _ = try await client.currentSession() }) {
                    if case .notSignedIn = $0 { return true } else { return false }
                }

                // A pool without the function says so.
                let plain = try await live.makePool()
                let other = live.authClient(pool: plain, client: try await live.makeClient(pool: plain))
                await expectAuthError({ _ = try await other.startCustomRegistration(data: nil) }) {
                    $0 == .invalidParameter("Custom registration is not configured for the user pool.")
                }
            }
        }
    }

    @Test func aNetworkErrorKeepsTheChallengeAndAServerRefusalEndsIt() async throws {
        try await LiveServer.with { live in
            try await TestFunctions.withCustomRegistration(live) { arn in
                let (pool, app) = try await Self.pool(live, function: arn)
                let client = live.authClient(
                    pool: pool, client: app, transport: FailingOnceTransport(failing: "RespondToCustomRegistration"))
                let flow = RegistrationFlow(client: client)
                let email = uniqueEmail("bank")
                _ = try await flow.startCustomRegistration(data: #"{"contract":"C-3003","email":"\#(email)"}"#)
                await expectAuthError({ _ = try await flow.answerCustomChallenge("4242") }) {
                    if case .network = $0 { return true } else { return false }
                }
                guard case .customChallenge = await flow.step else {
                    Issue.record("a network error should leave the challenge to answer again")
                    return
                }
                #expect(try await flow.answerCustomChallenge("4242") == .complete)

                // The same contract again: the name is taken, and the flow is back at the start.
                let again = RegistrationFlow(client: live.authClient(pool: pool, client: app))
                _ = try await again.startCustomRegistration(data: #"{"contract":"C-3003","email":"\#(email)"}"#)
                await expectAuthError({ _ = try await again.answerCustomChallenge("4242") }) {
                    if case .usernameExists = $0 { return true } else { return false }
                }
                #expect(await again.step == .signUp(missingAttributes: []))
            }
        }
    }

    /// A pool tracking devices, with a PIN policy and the function; an app client without a secret.
    private static func pool(_ live: LiveServer, function arn: String) async throws -> (String, LiveServer.AppClient) {
        let pool = try await live.makePool(
            devices: DeviceConfigurationType(challengeRequiredOnNewDevice: true, deviceOnlyRememberedOnUserPrompt: false))
        _ = try await live.service.pools.setUserPoolPinPolicy(SetUserPoolPinPolicyRequest(
            userPoolId: pool, pinPolicy: PinPolicy(minimumLength: 5, maximumLength: 6, maximumAttempts: 3)))
        _ = try await live.service.customRegistration.setUserPoolCustomRegistration(SetUserPoolCustomRegistrationRequest(
            userPoolId: pool, customRegistration: CustomRegistrationConfiguration(lambdaArn: arn)))
        return (pool, try await live.makeClient(pool: pool))
    }
}
