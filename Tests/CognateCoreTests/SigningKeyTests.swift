import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// Key rotation: a new key is published before it signs, old tokens keep verifying.
struct SigningKeyTests {
    @Test func rotationPublishesFirstSignsLaterAndRetiresAfterRetention() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            try await env.confirmedUser("alice", client: client)
            let before = try await env.passwordSignIn("alice", client: client)
            let oldKid = try #require(JWT.keyId(of: before.accessToken!))

            let newKid = try await SigningKeyRing.rotate(in: env.store, now: env.time.now)
            try await env.service.refreshSigningKeys()
            #expect(try env.service.jwks()["keys"]?.map { $0["kid"] } == [newKid, oldKid])  // published at once
            let during = try await env.passwordSignIn("alice", client: client)
            #expect(JWT.keyId(of: during.accessToken!) == oldKid)  // not signing yet

            env.time.advance(by: 61)
            let after = try await env.passwordSignIn("alice", client: client)
            #expect(JWT.keyId(of: after.accessToken!) == newKid)
            _ = try await env.service.getUser(GetUserRequest(accessToken: during.accessToken!))  // old key still accepted

            env.time.advance(by: SigningKeyRing.retentionAfterSuperseded + 1)
            try await env.service.refreshSigningKeys()
            #expect(try env.service.jwks()["keys"]?.map { $0["kid"] } == [newKid])
        }
    }

    @Test func aTokenFromAnUnknownKeyTriggersAReload() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            try await env.confirmedUser("bob", client: client)
            // Another "node" on the same store rotates and, once active, signs with the new key.
            let other = try await IdentityService.start(
                store: env.store, delivery: env.delivery, configuration: CoreConfiguration(keyActivationDelay: 0), time: env.time)
            _ = try await SigningKeyRing.rotate(in: env.store, now: env.time.now)
            try await other.refreshSigningKeys()
            env.time.advance(by: 10)
            let tokens = try await other.initiateAuth(InitiateAuthRequest(
                authFlow: .userPasswordAuth, authParameters: ["USERNAME": "bob", "PASSWORD": "Passw0rd!"], clientId: client.clientId!))
            _ = try await env.service.getUser(GetUserRequest(accessToken: tokens.authenticationResult!.accessToken!))
        }
    }
}
