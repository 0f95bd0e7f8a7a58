import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// What the periodic sweep deletes, and what it must keep.
struct HousekeepingTests {
    @Test func sessionsOutliveTheirRefreshTokenByTheLongestAccessToken() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.service.clients.createUserPoolClient(CreateUserPoolClientRequest(
                userPoolId: pool.id!, clientName: "app", refreshTokenValidity: 60, accessTokenValidity: 60,
                tokenValidityUnits: TokenValidityUnitsType(accessToken: .minutes, refreshToken: .minutes),
                explicitAuthFlows: [.allowUserPasswordAuth, .allowRefreshTokenAuth])).userPoolClient!
            try await env.confirmedUser("alice", client: client)
            let signedIn = try await env.passwordSignIn("alice", client: client)
            // Refreshed a minute before the refresh token expires: the new access token lives
            // an hour past it, so its family must stay after the refresh token has expired.
            env.time.advance(by: 59 * 60)
            let refreshed = try await env.service.signIn.initiateAuth(InitiateAuthRequest(
                authFlow: .refreshTokenAuth, authParameters: ["REFRESH_TOKEN": signedIn.refreshToken!],
                clientId: client.clientId!)).authenticationResult!
            env.time.advance(by: 2 * 60)
            let early = try await env.service.housekeeping.sweepExpired()
            #expect(early[.tokenFamilies] == 0)
            _ = try await env.service.account.getUser(GetUserRequest(accessToken: refreshed.accessToken!))
            // A day later both are gone.
            env.time.advance(by: 86_400)
            let late = try await env.service.housekeeping.sweepExpired()
            #expect(late[.tokenFamilies] == 1)
            #expect(late[.counters]! >= 0)
        }
    }

    @Test func expiredCodesAreKeptADaySoTheyStillAnswerExpired() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            _ = try await env.service.registration.signUp(SignUpRequest(
                clientId: client.clientId!, username: "bob", password: "Passw0rd!",
                userAttributes: [AttributeType(name: "email", value: "b@x.io")]))
            let code = env.delivery.lastCode!
            env.time.advance(by: 86_400 + 60)
            #expect(try await env.service.housekeeping.sweepExpired()[.codes] == 0)
            await expectCognitoError(.expiredCode) {
                _ = try await env.service.registration.confirmSignUp(ConfirmSignUpRequest(
                    clientId: client.clientId!, username: "bob", confirmationCode: code))
            }
            env.time.advance(by: 86_400)
            #expect(try await env.service.housekeeping.sweepExpired()[.codes] == 1)
        }
    }
}
