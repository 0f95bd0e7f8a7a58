import CognateAuth
import CognateCore
import CognateProtocol
import Foundation
import Testing

/// CUSTOM_AUTH through the SDK: the pool's functions (TestFunctions) ask a question, the
/// app answers with confirmSignIn(challengeResponse:).
struct CustomChallengeTests {
    @Test func passwordlessAndPasswordFirstSignInsAnswerThePoolsQuestion() async throws {
        try await LiveServer.with { live in
            try await TestFunctions.with(live) { functions in
                let (pool, app) = try await Self.customAuthPool(live, functions: functions)
                let client = live.authClient(pool: pool, client: app)
                let email = uniqueEmail("custom")
                try await live.confirmedUser(client, username: "ada", email: email)
                try await client.signOut()

                var step = try await client.signInWithCustomChallenge(username: "ada")
                guard case .customChallenge(let parameters, _) = step else {
                    Issue.record("expected a custom challenge, got \(step)")
                    return
                }
                #expect(parameters == ["question": "What is your favourite colour?"])
                step = try await client.confirmSignIn(challengeResponse: "red")
                guard case .customChallenge = step else {
                    Issue.record("a wrong answer should bring the question again, got \(step)")
                    return
                }
                step = try await client.confirmSignIn(challengeResponse: "Blue")
                guard case .signedIn(let user) = step else {
                    Issue.record("expected signedIn, got \(step)")
                    return
                }
                #expect(user.attributes["email"] == email)
                try await client.signOut()

                // The password first (SRP), then the question.
                step = try await client.signInWithCustomChallenge(username: "ada", password: "Passw0rd1")
                guard case .customChallenge = step else {
                    Issue.record("expected the question after the password, got \(step)")
                    return
                }
                guard case .signedIn = try await client.confirmSignIn(challengeResponse: "blue") else {
                    Issue.record("expected signedIn")
                    return
                }
                try await client.signOut()
                await expectAuthError({ _ = try await client.signInWithCustomChallenge(username: "ada", password: "Wrong0ne1") }) {
                    $0 == .notAuthorized("Incorrect username or password.")
                }
            }
        }
    }

    @Test func threeWrongAnswersEndTheSignInAndNothingIsPending() async throws {
        try await LiveServer.with { live in
            try await TestFunctions.with(live) { functions in
                let (pool, app) = try await Self.customAuthPool(live, functions: functions)
                let client = live.authClient(pool: pool, client: app)
                try await live.confirmedUser(client, username: "bo", email: uniqueEmail("custom"))
                try await client.signOut()
                _ = try await client.signInWithCustomChallenge(username: "bo")
                _ = try await client.confirmSignIn(challengeResponse: "red")
                _ = try await client.confirmSignIn(challengeResponse: "green")
                await expectAuthError({ _ = try await client.confirmSignIn(challengeResponse: "pink") }) {
                    $0 == .notAuthorized("Incorrect username or password.")
                }
                await expectAuthError({ _ = try await client.confirmSignIn(challengeResponse: "blue") }) {
                    if case .invalidState = $0 { return true } else { return false }
                }
            }
        }
    }

    /// A pool with the functions and an app client allowing CUSTOM_AUTH, SRP and refresh.
    private static func customAuthPool(_ live: LiveServer, functions: LambdaConfigType) async throws
        -> (String, LiveServer.AppClient)
    {
        let created = try await live.service.pools.createUserPool(CreateUserPoolRequest(
            poolName: "custom-\(UUID().uuidString.prefix(8))",
            policies: UserPoolPolicyType(passwordPolicy: PasswordPolicyType(minimumLength: 8, requireSymbols: false)),
            lambdaConfig: functions, autoVerifiedAttributes: [.email]))
        let pool = try #require(created.userPool?.id)
        let client = try await live.service.clients.createUserPoolClient(CreateUserPoolClientRequest(
            userPoolId: pool, clientName: "app",
            explicitAuthFlows: [.allowCustomAuth, .allowUserSrpAuth, .allowRefreshTokenAuth])).userPoolClient
        return (pool, LiveServer.AppClient(id: try #require(client?.clientId), secret: nil))
    }
}
