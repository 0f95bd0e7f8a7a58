import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

struct SignUpTests {
    @Test func signUpConfirmSignIn() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            let response = try await env.service.registration.signUp(SignUpRequest(
                clientId: client.clientId!, username: "alice", password: "Passw0rd!",
                userAttributes: [AttributeType(name: "email", value: "alice@example.com")]))
            #expect(!response.userConfirmed)
            #expect(response.codeDeliveryDetails?.destination == "a***@e***")
            #expect(response.codeDeliveryDetails?.deliveryMedium == .email)
            let code = try #require(env.delivery.lastCode)
            #expect(code.count == 6 && code.allSatisfy(\.isNumber))

            await expectCognitoError(.userNotConfirmed) { _ = try await env.passwordSignIn("alice", client: client) }
            _ = try await env.service.registration.confirmSignUp(ConfirmSignUpRequest(clientId: client.clientId!, username: "alice", confirmationCode: code))
            let user = try await env.service.userAdministration.adminGetUser(AdminGetUserRequest(userPoolId: pool.id!, username: "alice"))
            #expect(user.userStatus == .confirmed)
            #expect(user.userAttributes?.contains(AttributeType(name: "email_verified", value: "true")) == true)
            let tokens = try await env.passwordSignIn("alice", client: client)
            #expect(claims(of: tokens.idToken!)["email"] as? String == "alice@example.com")
            await expectCognitoError(.notAuthorized) {
                _ = try await env.service.registration.confirmSignUp(ConfirmSignUpRequest(clientId: client.clientId!, username: "alice", confirmationCode: code))
            }
        }
    }

    @Test func codeRulesAttemptsExpiryAndReplacement() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            func confirm(_ code: String) async throws {
                _ = try await env.service.registration.confirmSignUp(ConfirmSignUpRequest(clientId: client.clientId!, username: "bob", confirmationCode: code))
            }
            _ = try await env.service.registration.signUp(SignUpRequest(
                clientId: client.clientId!, username: "bob", password: "Passw0rd!", userAttributes: [AttributeType(name: "email", value: "b@x.io")]))
            let first = env.delivery.lastCode!
            let wrong = first == "000000" ? "111111" : "000000"
            for _ in 0..<CodeBook.maximumFailedAttempts { await expectCognitoError(.codeMismatch) { try await confirm(wrong) } }
            await expectCognitoError(.limitExceeded) { try await confirm(first) }  // the code is dead

            // A new code within the hour does not renew the guesses: it is dead too.
            _ = try await env.service.registration.resendConfirmationCode(ResendConfirmationCodeRequest(clientId: client.clientId!, username: "bob"))
            await expectCognitoError(.limitExceeded) { try await confirm(env.delivery.lastCode!) }
            // An hour later, a new code has a fresh budget.
            env.time.advance(by: 3601)
            _ = try await env.service.registration.resendConfirmationCode(ResendConfirmationCodeRequest(clientId: client.clientId!, username: "bob"))
            let second = env.delivery.lastCode!
            if second != first { await expectCognitoError(.codeMismatch) { try await confirm(first) } }  // bound to the old hour's code
            env.time.advance(by: 86_401)
            await expectCognitoError(.expiredCode) { try await confirm(second) }

            _ = try await env.service.registration.resendConfirmationCode(ResendConfirmationCodeRequest(clientId: client.clientId!, username: "bob"))
            try await confirm(env.delivery.lastCode!)
            await expectCognitoError(.invalidParameter) {
                _ = try await env.service.registration.resendConfirmationCode(ResendConfirmationCodeRequest(clientId: client.clientId!, username: "bob"))
            }
        }
    }

    @Test func resendIsLimitedPerHour() async throws {
        try await TestEnvironment.with(configuration: CoreConfiguration(codeRequestsPerHour: 2)) { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            _ = try await env.service.registration.signUp(SignUpRequest(
                clientId: client.clientId!, username: "carol", password: "Passw0rd!", userAttributes: [AttributeType(name: "email", value: "c@x.io")]))
            let resend = ResendConfirmationCodeRequest(clientId: client.clientId!, username: "carol")
            _ = try await env.service.registration.resendConfirmationCode(resend)
            _ = try await env.service.registration.resendConfirmationCode(resend)
            await expectCognitoError(.limitExceeded) { _ = try await env.service.registration.resendConfirmationCode(resend) }
            env.time.advance(by: 3600)
            _ = try await env.service.registration.resendConfirmationCode(resend)
        }
    }

    @Test func poolRulesPasswordRequiredAttributesDuplicates() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool(CreateUserPoolRequest(
                poolName: "strict",
                policies: UserPoolPolicyType(passwordPolicy: PasswordPolicyType(minimumLength: 10, requireNumbers: true)),
                schema: [SchemaAttributeType(name: "given_name", required: true),
                         SchemaAttributeType(name: "tier", attributeDataType: .number,
                                             numberAttributeConstraints: NumberAttributeConstraintsType(minValue: "1", maxValue: "3"))]))
            let client = try await env.client(pool: pool.id!)
            func signUp(_ name: String, _ password: String, _ attributes: [String: String]) async throws {
                _ = try await env.service.registration.signUp(SignUpRequest(
                    clientId: client.clientId!, username: name, password: password,
                    userAttributes: attributes.map { AttributeType(name: $0.key, value: $0.value) }))
            }
            await expectCognitoError(.invalidPassword) { try await signUp("d", "longenough", ["given_name": "D"]) }
            await expectCognitoError(.invalidPassword) { try await signUp("d", "short1", ["given_name": "D"]) }
            await expectCognitoError(.invalidParameter) { try await signUp("d", "longenough1", [:]) }
            await expectCognitoError(.invalidParameter) { try await signUp("d", "longenough1", ["given_name": "D", "custom:tier": "9"]) }
            await expectCognitoError(.invalidParameter) { try await signUp("d", "longenough1", ["given_name": "D", "nickname_x": "n"]) }
            try await signUp("d", "longenough1", ["given_name": "D", "custom:tier": "2"])
            await expectCognitoError(.usernameExists) { try await signUp("d", "longenough1", ["given_name": "E"]) }
        }
    }

    @Test func emailAsUsername() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool(CreateUserPoolRequest(
                poolName: "email", autoVerifiedAttributes: [.email], usernameAttributes: [.email],
                usernameConfiguration: UsernameConfigurationType(caseSensitive: false)))
            let client = try await env.client(pool: pool.id!)
            let response = try await env.service.registration.signUp(SignUpRequest(clientId: client.clientId!, username: "Eve@Example.com", password: "Passw0rd!"))
            await expectCognitoError(.usernameExists) {
                _ = try await env.service.registration.signUp(SignUpRequest(clientId: client.clientId!, username: "eve@example.com", password: "Passw0rd!"))
            }
            await expectCognitoError(.invalidParameter) {
                _ = try await env.service.registration.signUp(SignUpRequest(clientId: client.clientId!, username: "not-an-email", password: "Passw0rd!"))
            }
            _ = try await env.service.registration.confirmSignUp(ConfirmSignUpRequest(
                clientId: client.clientId!, username: "EVE@example.com", confirmationCode: env.delivery.lastCode!))
            let tokens = try await env.passwordSignIn("eve@EXAMPLE.com", client: client)
            #expect(claims(of: tokens.idToken!)["cognito:username"] as? String == response.userSub)
        }
    }

    @Test func secretHashIsRequiredAndChecked() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!, secret: true)
            let request = SignUpRequest(clientId: client.clientId!, username: "frank", password: "Passw0rd!")
            await expectCognitoError(.notAuthorized) { _ = try await env.service.registration.signUp(request) }
            var wrong = request
            wrong.secretHash = SecretHash.compute(username: "frank", clientId: client.clientId!, clientSecret: "nope")
            await expectCognitoError(.notAuthorized) { _ = try await env.service.registration.signUp(wrong) }
            var right = request
            right.secretHash = SecretHash.compute(username: "frank", clientId: client.clientId!, clientSecret: client.clientSecret!)
            _ = try await env.service.registration.signUp(right)
        }
    }

    @Test func preventUserExistenceErrors() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let legacy = try await env.client(pool: pool.id!)
            let enabled = try await env.client(pool: pool.id!, prevent: .enabled)
            await expectCognitoError(.userNotFound) { _ = try await env.passwordSignIn("ghost", client: legacy) }
            await expectCognitoError(.notAuthorized) { _ = try await env.passwordSignIn("ghost", client: enabled) }
            await expectCognitoError(.codeMismatch) {
                _ = try await env.service.registration.confirmSignUp(ConfirmSignUpRequest(clientId: enabled.clientId!, username: "ghost", confirmationCode: "123456"))
            }
            let simulated = try await env.service.registration.resendConfirmationCode(ResendConfirmationCodeRequest(clientId: enabled.clientId!, username: "ghost"))
            #expect(simulated.codeDeliveryDetails?.deliveryMedium == .email)
        }
    }
}
