import CognateAuth
import CognateProtocol
import Foundation
import Testing

/// Sign-up, confirmation and the typed errors a sign-up screen switches on.
struct SignUpTests {
    @Test func signUpConfirmAndResend() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            let email = uniqueEmail()
            let result = try await client.signUp(username: "ada", password: "Passw0rd1", attributes: ["email": email])
            #expect(!result.userSub.isEmpty)
            guard case .confirmSignUp(let delivery?) = result.nextStep else {
                Issue.record("expected a code step, got \(result.nextStep)")
                return
            }
            #expect(delivery.medium == .email && delivery.attributeName == "email")
            #expect(delivery.destination.contains("***"))

            let first = try await live.lastCode(to: email)
            let resent = try await client.resendSignUpCode(username: "ada")
            #expect(resent?.medium == .email)
            let second = try await live.lastCode(to: email)
            if first != second {
                await expectAuthError({ try await client.confirmSignUp(username: "ada", code: first) }) {
                    if case .expiredCode = $0 { true } else { false }
                }
            }
            try await client.confirmSignUp(username: "ada", code: second)
            #expect(try await client.signIn(username: "ada", password: "Passw0rd1").isSignedIn)
        }
    }

    @Test func typedErrorsKeepTheServersMessage() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            let email = uniqueEmail()
            _ = try await client.signUp(username: "grace", password: "Passw0rd1", attributes: ["email": email])

            let exists = await expectAuthError({
                _ = try await client.signUp(username: "grace", password: "Passw0rd1", attributes: ["email": uniqueEmail()])
            }) { if case .usernameExists = $0 { true } else { false } }
            #expect(exists?.message == "User already exists")
            #expect(exists?.cognitoCode == .usernameExists)

            let weak = await expectAuthError({
                _ = try await client.signUp(username: "linus", password: "password1", attributes: ["email": uniqueEmail()])
            }) { if case .invalidPassword = $0 { true } else { false } }
            #expect(weak?.message.hasPrefix("Password did not conform with policy") == true)

            let real = try await live.lastCode(to: email)
            let mismatch = await expectAuthError({
                try await client.confirmSignUp(username: "grace", code: real == "000000" ? "111111" : "000000")
            }) { if case .codeMismatch = $0 { true } else { false } }
            #expect(mismatch?.message == "Invalid verification code provided, please try again.")

            try await client.confirmSignUp(username: "grace", code: real)
            await expectAuthError({ try await client.confirmSignUp(username: "grace", code: real) }) {
                if case .notAuthorized(let message) = $0 { message.contains("CONFIRMED") } else { false }
            }
            let wrong = await expectAuthError({ _ = try await client.signIn(username: "grace", password: "Wrong0ne1") }) {
                if case .notAuthorized = $0 { true } else { false }
            }
            #expect(wrong?.message == "Incorrect username or password.")
            await expectAuthError({ try await client.confirmSignUp(username: "nobody", code: "123456") }) {
                if case .userNotFound = $0 { true } else { false }
            }
        }
    }

    @Test func everyCognitoErrorTypeMapsToACaseAndBack() {
        for code in CognitoErrorCode.allCases {
            let error = AuthError(code: code, message: "m-\(code.rawValue)")
            #expect(error.message == "m-\(code.rawValue)")
            let expected: CognitoErrorCode = code == .internalServer ? .internalError : code
            #expect(error.cognitoCode == expected, "\(code)")
        }
        if case .unexpected(let code, let message) = AuthError(type: "SerializationException", message: "bad") {
            #expect(code == "SerializationException" && message == "bad")
        } else {
            Issue.record("unknown types map to .unexpected")
        }
        if case .userLambdaValidation(let message) = AuthError(type: "UserLambdaValidationException", message: "PreSignUp failed with error x.") {
            #expect(message == "PreSignUp failed with error x.")
        } else {
            Issue.record("UserLambdaValidationException maps to .userLambdaValidation")
        }
    }

    @Test func networkFailuresAreTyped() async throws {
        let client = AuthClient(configuration: AuthConfiguration(
            endpoint: URL(string: "http://127.0.0.1:9")!, userPoolId: "us-east-1_Nope", clientId: "nope",
            tokenStore: InMemoryTokenStore(), transport: UnreachableTransport()))
        await expectAuthError({ _ = try await client.signUp(username: "a", password: "Passw0rd1") }) {
            if case .network = $0 { true } else { false }
        }
    }
}

extension SignInStep {
    var isSignedIn: Bool {
        if case .signedIn = self { return true }
        return false
    }
}
