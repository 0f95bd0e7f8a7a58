import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// Account lifecycle: recovery, attributes and their verification, aliases, sign-out.
struct LifecycleTests {
    static func attrs(_ pairs: [String: String]) -> [AttributeType] { pairs.map { AttributeType(name: $0.key, value: $0.value) } }

    @Test func forgotPasswordResetsThroughTheVerifiedChannel() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool(CreateUserPoolRequest(
                poolName: "p", policies: UserPoolPolicyType(passwordPolicy: PasswordPolicyType(minimumLength: 8, requireNumbers: true, passwordHistorySize: 2)),
                autoVerifiedAttributes: [.email],
                userPoolTags: [PoolSettings.revokeTokensOnPasswordChangeTag: "true"]))
            let client = try await env.client(pool: pool.id!)
            try await env.confirmedUser("alice", client: client)
            let before = try await env.passwordSignIn("alice", client: client)
            let sent = try await env.service.registration.forgotPassword(ForgotPasswordRequest(clientId: client.clientId!, username: "alice"))
            #expect(sent.codeDeliveryDetails?.attributeName == "email")
            let code = env.delivery.lastCode!
            func confirm(_ password: String, _ code: String) async throws {
                _ = try await env.service.registration.confirmForgotPassword(ConfirmForgotPasswordRequest(
                    clientId: client.clientId!, username: "alice", confirmationCode: code, password: password))
            }
            await expectCognitoError(.invalidPassword) { try await confirm("nodigits", code) }
            await expectCognitoError(.passwordHistoryPolicyViolation) { try await confirm("Passw0rd!", code) }  // reuse
            try await confirm("Another1pass", code)  // the refusals above did not spend the code
            await expectCognitoError(.expiredCode) { try await confirm("Third1pass", code) }  // single use
            await expectCognitoError(.notAuthorized) { _ = try await env.passwordSignIn("alice", "Passw0rd!", client: client) }
            _ = try await env.passwordSignIn("alice", "Another1pass", client: client)
            // The pool asks for sessions to end on reset.
            await expectCognitoError(.notAuthorized) { _ = try await env.service.account.getUser(GetUserRequest(accessToken: before.accessToken!)) }
            // Reset codes live one hour.
            _ = try await env.service.registration.forgotPassword(ForgotPasswordRequest(clientId: client.clientId!, username: "alice"))
            env.time.advance(by: 3601)
            await expectCognitoError(.expiredCode) { try await confirm("Fourth1pass", env.delivery.lastCode!) }
        }
    }

    @Test func forgotPasswordNeedsAVerifiedContact() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool(CreateUserPoolRequest(poolName: "p"))
            let client = try await env.client(pool: pool.id!)
            _ = try await env.service.registration.signUp(SignUpRequest(
                clientId: client.clientId!, username: "bob", password: "Passw0rd!", userAttributes: Self.attrs(["email": "b@x.io"])))
            _ = try await env.service.registration.adminConfirmSignUp(AdminConfirmSignUpRequest(userPoolId: pool.id!, username: "bob"))
            do {
                _ = try await env.service.registration.forgotPassword(ForgotPasswordRequest(clientId: client.clientId!, username: "bob"))
                Issue.record("reset without a verified contact")
            } catch let error as CognitoError {
                #expect(error.code == .invalidParameter)
                #expect(error.message == "Cannot reset password for the user as there is no registered/verified email or phone_number")
            }
        }
    }

    @Test func changePasswordNeedsThePreviousOne() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            try await env.confirmedUser("carol", client: client)
            let tokens = try await env.passwordSignIn("carol", client: client)
            await expectCognitoError(.notAuthorized) {
                _ = try await env.service.account.changePassword(ChangePasswordRequest(
                    previousPassword: "wrong", proposedPassword: "N3wPassword!", accessToken: tokens.accessToken!))
            }
            _ = try await env.service.account.changePassword(ChangePasswordRequest(
                previousPassword: "Passw0rd!", proposedPassword: "N3wPassword!", accessToken: tokens.accessToken!))
            _ = try await env.service.account.getUser(GetUserRequest(accessToken: tokens.accessToken!))  // no revocation tag: still valid
            _ = try await env.passwordSignIn("carol", "N3wPassword!", client: client)
        }
    }

    @Test func changingEmailUnverifiesAndSendsACode() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            try await env.confirmedUser("dave", email: "old@x.io", client: client)
            let tokens = try await env.passwordSignIn("dave", client: client)
            let response = try await env.service.account.updateUserAttributes(UpdateUserAttributesRequest(
                userAttributes: Self.attrs(["email": "new@x.io", "given_name": "Dave"]), accessToken: tokens.accessToken!))
            #expect(response.codeDeliveryDetailsList?.first?.destination == "n***@x***")
            var user = try await env.service.account.getUser(GetUserRequest(accessToken: tokens.accessToken!)).userAttributes
            #expect(user.contains(AttributeType(name: "email", value: "new@x.io")))
            #expect(user.contains(AttributeType(name: "email_verified", value: "false")))
            _ = try await env.service.account.verifyUserAttribute(VerifyUserAttributeRequest(
                accessToken: tokens.accessToken!, attributeName: "email", code: env.delivery.lastCode!))
            user = try await env.service.account.getUser(GetUserRequest(accessToken: tokens.accessToken!)).userAttributes
            #expect(user.contains(AttributeType(name: "email_verified", value: "true")))
            await expectCognitoError(.invalidParameter) {  // immutable / unknown / users may not set flags
                _ = try await env.service.account.updateUserAttributes(UpdateUserAttributesRequest(
                    userAttributes: Self.attrs(["email_verified": "true"]), accessToken: tokens.accessToken!))
            }
            await expectCognitoError(.invalidParameter) {
                _ = try await env.service.account.updateUserAttributes(UpdateUserAttributesRequest(
                    userAttributes: Self.attrs(["custom:nope": "1"]), accessToken: tokens.accessToken!))
            }
            await expectCognitoError(.invalidParameter) {
                _ = try await env.service.account.updateUserAttributes(UpdateUserAttributesRequest(
                    userAttributes: Self.attrs(["birthdate": "1990-02-30"]), accessToken: tokens.accessToken!))
            }
            _ = try await env.service.account.deleteUserAttributes(DeleteUserAttributesRequest(userAttributeNames: ["given_name"], accessToken: tokens.accessToken!))
            user = try await env.service.account.getUser(GetUserRequest(accessToken: tokens.accessToken!)).userAttributes
            #expect(!user.contains { $0.name == "given_name" })
        }
    }

    @Test func heldAddressStaysUntilVerified() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool(CreateUserPoolRequest(
                poolName: "p", autoVerifiedAttributes: [.email], aliasAttributes: [.email],
                userAttributeUpdateSettings: UserAttributeUpdateSettingsType(attributesRequireVerificationBeforeUpdate: [.email])))
            let client = try await env.client(pool: pool.id!)
            try await env.confirmedUser("erin", email: "erin@old.io", client: client)
            let tokens = try await env.passwordSignIn("erin@old.io", client: client)  // verified alias signs in
            _ = try await env.service.account.updateUserAttributes(UpdateUserAttributesRequest(
                userAttributes: Self.attrs(["email": "erin@new.io"]), accessToken: tokens.accessToken!))
            var user = try await env.service.account.getUser(GetUserRequest(accessToken: tokens.accessToken!)).userAttributes
            #expect(user.contains(AttributeType(name: "email", value: "erin@old.io")))
            _ = try await env.passwordSignIn("erin@old.io", client: client)
            #expect(env.delivery.messages.last?.destination == "erin@new.io")
            _ = try await env.service.account.verifyUserAttribute(VerifyUserAttributeRequest(
                accessToken: tokens.accessToken!, attributeName: "email", code: env.delivery.lastCode!))
            user = try await env.service.account.getUser(GetUserRequest(accessToken: tokens.accessToken!)).userAttributes
            #expect(user.contains(AttributeType(name: "email", value: "erin@new.io")))
            _ = try await env.passwordSignIn("erin@new.io", client: client)
            await expectCognitoError(.userNotFound) { _ = try await env.passwordSignIn("erin@old.io", client: client) }
        }
    }

    @Test func aliasesSignInOnlyWhenVerifiedAndMoveToTheLatestVerifier() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool(CreateUserPoolRequest(
                poolName: "p", autoVerifiedAttributes: [.email], aliasAttributes: [.email, .preferredUsername],
                usernameConfiguration: UsernameConfigurationType(caseSensitive: false)))
            let client = try await env.client(pool: pool.id!)
            await expectCognitoError(.invalidParameter) {
                _ = try await env.service.registration.signUp(SignUpRequest(clientId: client.clientId!, username: "x@y.io", password: "Passw0rd!"))
            }
            try await env.confirmedUser("Frank", email: "shared@x.io", client: client)
            _ = try await env.passwordSignIn("SHARED@x.io", client: client)
            _ = try await env.passwordSignIn("frank", client: client)
            // A second user with the same email: unverified, so no alias conflict yet.
            _ = try await env.service.registration.signUp(SignUpRequest(
                clientId: client.clientId!, username: "grace", password: "Passw0rd!",
                userAttributes: Self.attrs(["email": "shared@x.io", "preferred_username": "gee"])))
            let code = env.delivery.lastCode!
            await expectCognitoError(.aliasExists) {
                _ = try await env.service.registration.confirmSignUp(ConfirmSignUpRequest(clientId: client.clientId!, username: "grace", confirmationCode: code))
            }
            _ = try await env.service.registration.resendConfirmationCode(ResendConfirmationCodeRequest(clientId: client.clientId!, username: "grace"))
            _ = try await env.service.registration.confirmSignUp(ConfirmSignUpRequest(
                clientId: client.clientId!, username: "grace", confirmationCode: env.delivery.lastCode!, forceAliasCreation: true))
            let tokens = try await env.passwordSignIn("shared@x.io", client: client)
            #expect(claims(of: tokens.idToken!)["cognito:username"] as? String == "grace")
            _ = try await env.passwordSignIn("GEE", client: client)
            let frank = try await env.service.userAdministration.adminGetUser(AdminGetUserRequest(userPoolId: pool.id!, username: "frank"))
            #expect(frank.userAttributes?.contains(AttributeType(name: "email_verified", value: "false")) == true)
            await expectCognitoError(.aliasExists) {
                _ = try await env.service.userAdministration.adminUpdateUserAttributes(AdminUpdateUserAttributesRequest(
                    userPoolId: pool.id!, username: "frank", userAttributes: Self.attrs(["preferred_username": "Gee"])))
            }
        }
    }

    @Test func revokeTokenEndsOneSessionAndGlobalSignOutAll() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            try await env.confirmedUser("hank", client: client)
            let first = try await env.passwordSignIn("hank", client: client)
            let second = try await env.passwordSignIn("hank", client: client)
            _ = try await env.service.sessions.revokeToken(RevokeTokenRequest(token: first.refreshToken!, clientId: client.clientId!))
            await expectCognitoError(.notAuthorized) { _ = try await env.service.account.getUser(GetUserRequest(accessToken: first.accessToken!)) }
            _ = try await env.service.account.getUser(GetUserRequest(accessToken: second.accessToken!))
            _ = try await env.service.sessions.revokeToken(RevokeTokenRequest(token: "unknown-token", clientId: client.clientId!))
            await expectCognitoError(.unsupportedTokenType) {
                _ = try await env.service.sessions.revokeToken(RevokeTokenRequest(token: second.accessToken!, clientId: client.clientId!))
            }
            _ = try await env.service.sessions.globalSignOut(GlobalSignOutRequest(accessToken: second.accessToken!))
            for token in [second.accessToken!] {
                await expectCognitoError(.notAuthorized) { _ = try await env.service.account.getUser(GetUserRequest(accessToken: token)) }
                await expectCognitoError(.notAuthorized) {
                    _ = try await env.service.account.updateUserAttributes(UpdateUserAttributesRequest(userAttributes: [], accessToken: token))
                }
                await expectCognitoError(.notAuthorized) {
                    _ = try await env.service.account.changePassword(ChangePasswordRequest(previousPassword: "Passw0rd!", proposedPassword: "X1yyyyyy!", accessToken: token))
                }
            }
        }
    }
}
