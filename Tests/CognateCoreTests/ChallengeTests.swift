import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// The sign-in state machine: SRP, NEW_PASSWORD_REQUIRED, sessions and lockout.
struct ChallengeTests {
    /// Runs USER_SRP_AUTH with the SDK's client half and answers PASSWORD_VERIFIER.
    static func srpSignIn(_ env: TestEnvironment, pool: UserPoolType, client: UserPoolClientType, username: String,
                          password: String, tamper: ((inout [String: String]) -> Void)? = nil) async throws
        -> RespondToAuthChallengeResponse
    {
        let srp = SRPClient()
        let challenge = try await env.service.signIn.initiateAuth(InitiateAuthRequest(
            authFlow: .userSrpAuth, authParameters: ["USERNAME": username, "SRP_A": srp.publicValueHex], clientId: client.clientId!))
        #expect(challenge.challengeName == .passwordVerifier)
        #expect(challenge.session == nil)
        let parameters = try #require(challenge.challengeParameters)
        let userId = try #require(parameters["USER_ID_FOR_SRP"])
        let claim = try srp.passwordClaim(
            realm: SRPDerivation.poolName(ofPoolId: pool.id!), identity: userId, secret: password,
            saltHex: parameters["SALT"]!, serverPublicHex: parameters["SRP_B"]!, secretBlock: parameters["SECRET_BLOCK"]!,
            date: env.time.now)
        var responses = [
            "USERNAME": userId, "PASSWORD_CLAIM_SECRET_BLOCK": parameters["SECRET_BLOCK"]!,
            "PASSWORD_CLAIM_SIGNATURE": claim.signature, "TIMESTAMP": claim.timestamp,
        ]
        tamper?(&responses)
        return try await env.service.signIn.respondToAuthChallenge(RespondToAuthChallengeRequest(
            clientId: client.clientId!, challengeName: .passwordVerifier, challengeResponses: responses))
    }

    @Test func srpSignsInAndRefusesWrongPasswordsAndReplays() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!, flows: [.allowUserSrpAuth, .allowRefreshTokenAuth])
            try await env.confirmedUser("alice", client: try await env.client(pool: pool.id!))
            let result = try await Self.srpSignIn(env, pool: pool, client: client, username: "alice", password: "Passw0rd!")
            #expect(result.authenticationResult?.accessToken != nil)
            await expectCognitoError(.notAuthorized) {
                _ = try await Self.srpSignIn(env, pool: pool, client: client, username: "alice", password: "wrong")
            }
            // Padded day-of-month: refused as Cognito refuses it.
            await expectCognitoError(.notAuthorized) {
                _ = try await Self.srpSignIn(env, pool: pool, client: client, username: "alice", password: "Passw0rd!") {
                    let parts = $0["TIMESTAMP"]!.split(separator: " ")
                    if parts[2].count == 1 { $0["TIMESTAMP"] = parts.enumerated().map { $0 == 2 ? "0\($1)" : String($1) }.joined(separator: " ") }
                    else { $0["TIMESTAMP"] = "Mon Jan 1 00:00:00 UTC 2001" }
                }
            }
            await expectCognitoError(.invalidParameter) {
                _ = try await Self.srpSignIn(env, pool: pool, client: client, username: "alice", password: "Passw0rd!") {
                    $0["TIMESTAMP"] = "yesterday"
                }
            }
        }
    }

    @Test func secretBlockIsSingleUseBoundToClientAndExpires() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!, flows: [.allowUserSrpAuth])
            let other = try await env.client(pool: pool.id!, flows: [.allowUserSrpAuth])
            try await env.confirmedUser("bob", client: try await env.client(pool: pool.id!))
            let srp = SRPClient()
            let challenge = try await env.service.signIn.initiateAuth(InitiateAuthRequest(
                authFlow: .userSrpAuth, authParameters: ["USERNAME": "bob", "SRP_A": srp.publicValueHex], clientId: client.clientId!))
            let p = challenge.challengeParameters!
            let claim = try srp.passwordClaim(
                realm: SRPDerivation.poolName(ofPoolId: pool.id!), identity: "bob", secret: "Passw0rd!", saltHex: p["SALT"]!,
                serverPublicHex: p["SRP_B"]!, secretBlock: p["SECRET_BLOCK"]!, date: env.time.now)
            let responses = ["USERNAME": "bob", "PASSWORD_CLAIM_SECRET_BLOCK": p["SECRET_BLOCK"]!,
                             "PASSWORD_CLAIM_SIGNATURE": claim.signature, "TIMESTAMP": claim.timestamp]
            await expectCognitoError(.notAuthorized) {  // another client cannot use it
                _ = try await env.service.signIn.respondToAuthChallenge(RespondToAuthChallengeRequest(
                    clientId: other.clientId!, challengeName: .passwordVerifier, challengeResponses: responses))
            }
            _ = try await env.service.signIn.respondToAuthChallenge(RespondToAuthChallengeRequest(
                clientId: client.clientId!, challengeName: .passwordVerifier, challengeResponses: responses))
            await expectCognitoError(.notAuthorized) {  // replay
                _ = try await env.service.signIn.respondToAuthChallenge(RespondToAuthChallengeRequest(
                    clientId: client.clientId!, challengeName: .passwordVerifier, challengeResponses: responses))
            }
            // A fresh block answered after the session validity (3 minutes).
            let late = try await env.service.signIn.initiateAuth(InitiateAuthRequest(
                authFlow: .userSrpAuth, authParameters: ["USERNAME": "bob", "SRP_A": srp.publicValueHex], clientId: client.clientId!))
            env.time.advance(by: 181)
            let lateClaim = try srp.passwordClaim(
                realm: SRPDerivation.poolName(ofPoolId: pool.id!), identity: "bob", secret: "Passw0rd!",
                saltHex: late.challengeParameters!["SALT"]!, serverPublicHex: late.challengeParameters!["SRP_B"]!,
                secretBlock: late.challengeParameters!["SECRET_BLOCK"]!, date: env.time.now)
            do {
                _ = try await env.service.signIn.respondToAuthChallenge(RespondToAuthChallengeRequest(
                    clientId: client.clientId!, challengeName: .passwordVerifier, challengeResponses: [
                        "USERNAME": "bob", "PASSWORD_CLAIM_SECRET_BLOCK": late.challengeParameters!["SECRET_BLOCK"]!,
                        "PASSWORD_CLAIM_SIGNATURE": lateClaim.signature, "TIMESTAMP": lateClaim.timestamp,
                    ]))
                Issue.record("an expired session was accepted")
            } catch let error as CognitoError {
                #expect(error.message == "Invalid session for the user, session is expired.")
            }
        }
    }

    @Test func adminCreatedUserMustChooseANewPasswordWithRequiredAttributes() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool(CreateUserPoolRequest(
                poolName: "p", schema: [SchemaAttributeType(name: "given_name", required: true)]))
            let client = try await env.client(pool: pool.id!, flows: [.allowAdminUserPasswordAuth, .allowUserPasswordAuth])
            let created = try await env.service.userAdministration.adminCreateUser(AdminCreateUserRequest(
                userPoolId: pool.id!, username: "carol", userAttributes: [AttributeType(name: "email", value: "c@x.io")]))
            #expect(created.user?.userStatus == .forceChangePassword)
            let invitation = try #require(env.delivery.messages.last)
            #expect(invitation.purpose == "invitation" && invitation.body.contains("carol"))
            let temporary = try #require(invitation.code)
            let challenge = try await env.service.signIn.adminInitiateAuth(AdminInitiateAuthRequest(
                userPoolId: pool.id!, clientId: client.clientId!, authFlow: .adminUserPasswordAuth,
                authParameters: ["USERNAME": "carol", "PASSWORD": temporary]))
            #expect(challenge.challengeName == .newPasswordRequired)
            #expect(challenge.challengeParameters?["requiredAttributes"] == #"["userAttributes.given_name"]"#)
            let session = try #require(challenge.session)
            func answer(_ responses: [String: String]) async throws -> AdminRespondToAuthChallengeResponse {
                try await env.service.signIn.adminRespondToAuthChallenge(AdminRespondToAuthChallengeRequest(
                    userPoolId: pool.id!, clientId: client.clientId!, challengeName: .newPasswordRequired,
                    challengeResponses: responses, session: session))
            }
            await expectCognitoError(.invalidPassword) { _ = try await answer(["USERNAME": "carol", "NEW_PASSWORD": "weak"]) }
            await expectCognitoError(.invalidParameter) { _ = try await answer(["USERNAME": "carol", "NEW_PASSWORD": "N3wPassword!"]) }
            let done = try await answer(["USERNAME": "carol", "NEW_PASSWORD": "N3wPassword!", "userAttributes.given_name": "Carol"])
            #expect(done.authenticationResult?.idToken != nil)
            await expectCognitoError(.notAuthorized) {  // the session is used up
                _ = try await answer(["USERNAME": "carol", "NEW_PASSWORD": "Other0ne!!", "userAttributes.given_name": "C"])
            }
            _ = try await env.passwordSignIn("carol", "N3wPassword!", client: client)
        }
    }

    @Test func temporaryPasswordsExpire() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            _ = try await env.service.userAdministration.adminCreateUser(AdminCreateUserRequest(
                userPoolId: pool.id!, username: "dan", temporaryPassword: "Temp0rary!", messageAction: .suppress))
            #expect(env.delivery.messages.isEmpty)
            env.time.advance(by: 8 * 86_400)
            await expectCognitoError(.notAuthorized) { _ = try await env.passwordSignIn("dan", "Temp0rary!", client: client) }
            _ = try await env.service.userAdministration.adminCreateUser(AdminCreateUserRequest(
                userPoolId: pool.id!, username: "dan", temporaryPassword: "Fresh0ne!!", messageAction: .resend))
            let challenge = try await env.service.signIn.initiateAuth(InitiateAuthRequest(
                authFlow: .userPasswordAuth, authParameters: ["USERNAME": "dan", "PASSWORD": "Fresh0ne!!"], clientId: client.clientId!))
            #expect(challenge.challengeName == .newPasswordRequired)
        }
    }

    @Test func wrongPasswordsLockTheUserOutWithGrowingDelays() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            try await env.confirmedUser("erin", client: client)
            for _ in 0..<5 {
                await expectCognitoError(.notAuthorized) { _ = try await env.passwordSignIn("erin", "wrong", client: client) }
            }
            do {
                _ = try await env.passwordSignIn("erin", client: client)
                Issue.record("signed in during lockout")
            } catch let error as CognitoError {
                #expect(error.message == "Password attempts exceeded")
            }
            env.time.advance(by: 1.5)
            _ = try await env.passwordSignIn("erin", client: client)  // the lockout has passed; success clears it
            for _ in 0..<5 { _ = try? await env.passwordSignIn("erin", "wrong", client: client) }
            env.time.advance(by: 1.5)
            _ = try? await env.passwordSignIn("erin", "wrong", client: client)  // 6th failure: 2 s
            env.time.advance(by: 1.5)
            await expectCognitoError(.notAuthorized) { _ = try await env.passwordSignIn("erin", client: client) }
            env.time.advance(by: 1)
            _ = try await env.passwordSignIn("erin", client: client)
            #expect(SignInThrottle.lockout(afterFailures: 40) == 900)
        }
    }

    @Test func disabledUsersAndGlobalSignOut() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            try await env.confirmedUser("finn", client: client)
            let tokens = try await env.passwordSignIn("finn", client: client)
            _ = try await env.service.userAdministration.adminDisableUser(AdminDisableUserRequest(userPoolId: pool.id!, username: "finn"))
            do {
                _ = try await env.passwordSignIn("finn", client: client)
                Issue.record("disabled user signed in")
            } catch let error as CognitoError {
                #expect(error.message == "User is disabled.")
            }
            await expectCognitoError(.notAuthorized) { _ = try await env.service.account.getUser(GetUserRequest(accessToken: tokens.accessToken!)) }
            _ = try await env.service.userAdministration.adminEnableUser(AdminEnableUserRequest(userPoolId: pool.id!, username: "finn"))
            // Disabling revoked the tokens for good; a new sign-in works.
            await expectCognitoError(.notAuthorized) { _ = try await env.service.account.getUser(GetUserRequest(accessToken: tokens.accessToken!)) }
            let fresh = try await env.passwordSignIn("finn", client: client)
            _ = try await env.service.userAdministration.adminUserGlobalSignOut(AdminUserGlobalSignOutRequest(userPoolId: pool.id!, username: "finn"))
            do {
                _ = try await env.service.account.getUser(GetUserRequest(accessToken: fresh.accessToken!))
                Issue.record("revoked token accepted")
            } catch let error as CognitoError {
                #expect(error.message == "Access Token has been revoked")
            }
            await expectCognitoError(.notAuthorized) {
                _ = try await env.service.signIn.initiateAuth(InitiateAuthRequest(
                    authFlow: .refreshTokenAuth, authParameters: ["REFRESH_TOKEN": fresh.refreshToken!], clientId: client.clientId!))
            }
            _ = try await env.passwordSignIn("finn", client: client)  // a new sign-in works
        }
    }

    @Test func groupsAppearInTokensByPrecedence() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            try await env.confirmedUser("gail", client: client)
            for (name, precedence, role) in [("readers", 5, "arn:aws:iam::1:role/read"), ("admins", 1, "arn:aws:iam::1:role/admin"), ("misc", nil, nil)] as [(String, Int?, String?)] {
                _ = try await env.service.userAdministration.createGroup(CreateGroupRequest(groupName: name, userPoolId: pool.id!, roleArn: role, precedence: precedence))
                _ = try await env.service.userAdministration.adminAddUserToGroup(AdminAddUserToGroupRequest(userPoolId: pool.id!, username: "gail", groupName: name))
            }
            await expectCognitoError(.groupExists) { _ = try await env.service.userAdministration.createGroup(CreateGroupRequest(groupName: "misc", userPoolId: pool.id!)) }
            let tokens = try await env.passwordSignIn("gail", client: client)
            let id = claims(of: tokens.idToken!), access = claims(of: tokens.accessToken!)
            #expect(id["cognito:groups"] as? [String] == ["admins", "readers", "misc"])
            #expect(access["cognito:groups"] as? [String] == ["admins", "readers", "misc"])
            #expect(id["cognito:preferred_role"] as? String == "arn:aws:iam::1:role/admin")
            #expect(id["cognito:roles"] as? [String] == ["arn:aws:iam::1:role/admin", "arn:aws:iam::1:role/read"])
            _ = try await env.service.userAdministration.adminRemoveUserFromGroup(AdminRemoveUserFromGroupRequest(userPoolId: pool.id!, username: "gail", groupName: "admins"))
            let groups = try await env.service.userAdministration.adminListGroupsForUser(AdminListGroupsForUserRequest(username: "gail", userPoolId: pool.id!, limit: 1))
            #expect(groups.groups?.map(\.groupName) == ["readers"] && groups.nextToken != nil)
            let members = try await env.service.userAdministration.listUsersInGroup(ListUsersInGroupRequest(userPoolId: pool.id!, groupName: "misc"))
            #expect(members.users?.map(\.username) == ["gail"])
            _ = try await env.service.userAdministration.deleteGroup(DeleteGroupRequest(groupName: "misc", userPoolId: pool.id!))
            await expectCognitoError(.resourceNotFound) { _ = try await env.service.userAdministration.getGroup(GetGroupRequest(groupName: "misc", userPoolId: pool.id!)) }
        }
    }

    @Test(arguments: [
        (#"email = "a@x.io""#, true), (#"email^="a""#, true), (#"  given_name   ^=   "Al" "#, true),
        (#"username = "quote\"d""#, true), (#"custom:tier = "1""#, false), (#"email = a@x.io"#, false),
        (#"email == "a""#, false), (#"email = "unterminated"#, false),
    ])
    func filterParsing(_ text: String, valid: Bool) {
        #expect(((try? UserFilterParser.parse(text, names: SignInNames(pool: UserPoolType()))) != nil) == valid)
    }
}
