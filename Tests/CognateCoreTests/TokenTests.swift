import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

struct TokenTests {
    @Test func claimsRefreshAndRevocationByDeletion() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            try await env.confirmedUser("alice", client: client)
            let tokens = try await env.passwordSignIn("alice", client: client)
            let id = claims(of: tokens.idToken!), access = claims(of: tokens.accessToken!)
            #expect(id["iss"] as? String == "http://127.0.0.1:9229/\(pool.id!)")
            #expect(id["aud"] as? String == client.clientId)
            #expect(id["token_use"] as? String == "id")
            #expect(id["email_verified"] as? Bool == true)
            #expect(access["token_use"] as? String == "access")
            #expect(access["client_id"] as? String == client.clientId)
            #expect(access["scope"] as? String == "aws.cognito.signin.user.admin")
            #expect(access["aud"] == nil)
            #expect(id["origin_jti"] as? String == access["origin_jti"] as? String)
            #expect((access["exp"] as! Double) - (access["iat"] as! Double) == 3600)
            #expect(tokens.expiresIn == 3600)

            env.time.advance(by: 600)
            let refreshed = try await env.service.signIn.initiateAuth(InitiateAuthRequest(
                authFlow: .refreshTokenAuth, authParameters: ["REFRESH_TOKEN": tokens.refreshToken!], clientId: client.clientId!))
                .authenticationResult!
            #expect(refreshed.refreshToken == nil)
            let again = claims(of: refreshed.accessToken!)
            #expect(again["origin_jti"] as? String == access["origin_jti"] as? String)
            #expect(again["auth_time"] as? Double == access["auth_time"] as? Double)
            #expect(again["jti"] as? String != access["jti"] as? String)

            _ = try await env.service.account.getUser(GetUserRequest(accessToken: refreshed.accessToken!))
            _ = try await env.service.account.deleteUser(DeleteUserRequest(accessToken: tokens.accessToken!))
            await expectCognitoError(.notAuthorized) {
                _ = try await env.service.signIn.initiateAuth(InitiateAuthRequest(
                    authFlow: .refreshTokenAuth, authParameters: ["REFRESH_TOKEN": tokens.refreshToken!], clientId: client.clientId!))
            }
            await expectCognitoError(.userNotFound) { _ = try await env.service.account.getUser(GetUserRequest(accessToken: refreshed.accessToken!)) }
        }
    }

    @Test func expiryFollowsClientValidity() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.service.clients.createUserPoolClient(CreateUserPoolClientRequest(
                userPoolId: pool.id!, clientName: "short", refreshTokenValidity: 2, accessTokenValidity: 10, idTokenValidity: 15,
                tokenValidityUnits: TokenValidityUnitsType(accessToken: .minutes, idToken: .minutes, refreshToken: .hours),
                explicitAuthFlows: [.allowUserPasswordAuth, .allowRefreshTokenAuth])).userPoolClient!
            try await env.confirmedUser("bob", client: client)
            let tokens = try await env.passwordSignIn("bob", client: client)
            #expect(tokens.expiresIn == 600)
            let id = claims(of: tokens.idToken!)
            #expect((id["exp"] as! Double) - (id["iat"] as! Double) == 900)
            env.time.advance(by: 601)
            await expectCognitoError(.notAuthorized) { _ = try await env.service.account.getUser(GetUserRequest(accessToken: tokens.accessToken!)) }
            env.time.advance(by: 7200)
            await expectCognitoError(.notAuthorized) {
                _ = try await env.service.signIn.initiateAuth(InitiateAuthRequest(
                    authFlow: .refreshTokenAuth, authParameters: ["REFRESH_TOKEN": tokens.refreshToken!], clientId: client.clientId!))
            }
        }
    }

    @Test func refusesForgedAndMisusedTokens() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            try await env.confirmedUser("carol", client: client)
            let tokens = try await env.passwordSignIn("carol", client: client)
            await expectCognitoError(.notAuthorized) { _ = try await env.service.account.getUser(GetUserRequest(accessToken: tokens.idToken!)) }
            var parts = tokens.accessToken!.split(separator: ".").map(String.init)
            parts[1] = Base64URL.encode(Data(#"{"token_use":"access","sub":"x"}"#.utf8))
            await expectCognitoError(.notAuthorized) {
                _ = try await env.service.account.getUser(GetUserRequest(accessToken: parts.joined(separator: ".")))
            }
            await expectCognitoError(.notAuthorized) { _ = try await env.service.account.getUser(GetUserRequest(accessToken: "not.a.jwt")) }
        }
    }
}
