import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// Signing keys: one set per pool; rotation publishes before it signs and keeps old tokens
/// valid; retirement stops a key at once; keys from before keys per pool fade out.
struct SigningKeyTests {
    func kids(_ env: TestEnvironment, _ pool: String) async throws -> [String?] {
        try await env.service.pools.jwks(poolId: pool)?["keys"]?.map { $0["kid"] } ?? []
    }

    @Test func rotationPublishesFirstSignsLaterAndExpiresAfterRetention() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            try await env.confirmedUser("alice", client: client)
            let before = try await env.passwordSignIn("alice", client: client)
            let oldKid = try #require(JWT.keyId(of: before.accessToken!))

            env.time.advance(by: 1)
            let newKid = try await SigningKeyRing.rotate(
                poolId: pool.id!, in: env.store, now: env.time.now, activationDelay: 60).kid
            try await env.service.housekeeping.applyChanges()
            #expect(try await kids(env, pool.id!) == [newKid, oldKid])  // published at once
            let during = try await env.passwordSignIn("alice", client: client)
            #expect(JWT.keyId(of: during.accessToken!) == oldKid)  // not signing yet

            env.time.advance(by: 61)
            let after = try await env.passwordSignIn("alice", client: client)
            #expect(JWT.keyId(of: after.accessToken!) == newKid)
            _ = try await env.service.account.getUser(GetUserRequest(accessToken: during.accessToken!))  // old key still accepted

            env.time.advance(by: SigningKeyRing.retentionAfterSuperseded + 1)
            try await env.service.housekeeping.refreshSigningKeys()
            #expect(try await kids(env, pool.id!) == [newKid])
        }
    }

    @Test func eachPoolHasItsOwnKeysAndAcceptsOnlyThem() async throws {
        try await TestEnvironment.with { env in
            let first = try await env.pool()
            let second = try await env.pool()
            let firstKids = try await kids(env, first.id!)
            let secondKids = try await kids(env, second.id!)
            #expect(firstKids.count == 1 && secondKids.count == 1 && firstKids != secondKids)
            let client = try await env.client(pool: first.id!)
            try await env.confirmedUser("carol", client: client)
            let tokens = try await env.passwordSignIn("carol", client: client)
            #expect(JWT.keyId(of: tokens.accessToken!) == firstKids[0])
            // Pool two knows no key that could verify it.
            let kid = try #require(JWT.keyId(of: tokens.accessToken!))
            #expect(try await env.service.housekeeping.keys.verificationKey(kid: kid, poolId: second.id!, now: env.time.now) == nil)
        }
    }

    @Test func aRetiredKeyIsRefusedAtOnceAndItsPoolSignsWithANewOne() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            try await env.confirmedUser("dave", client: client)
            let leaked = try await env.passwordSignIn("dave", client: client)
            let kid = try #require(JWT.keyId(of: leaked.accessToken!))

            let outcome = try #require(try await SigningKeyRing.retire(kid: kid, in: env.store, now: env.time.now))
            try await env.service.housekeeping.applyChanges()
            await expectCognitoError(.notAuthorized) { _ = try await env.service.account.getUser(GetUserRequest(accessToken: leaked.accessToken!)) }
            #expect(try await kids(env, pool.id!) == [outcome.replacement?.kid])
            let fresh = try await env.passwordSignIn("dave", client: client)
            #expect(JWT.keyId(of: fresh.accessToken!) == outcome.replacement?.kid)
            _ = try await env.service.account.getUser(GetUserRequest(accessToken: fresh.accessToken!))
        }
    }

    @Test func anotherNodesRotationReachesThisNodeThroughTheFeed() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            try await env.confirmedUser("bob", client: client)
            _ = try await kids(env, pool.id!)  // this node has loaded the pool's keys
            // Another "node" on the same store rotates and, once active, signs with the new key.
            let other = try await IdentityService.start(
                store: env.store, delivery: env.delivery, configuration: CoreConfiguration(), time: env.time)
            env.time.advance(by: 1)
            let rotated = try await SigningKeyRing.rotate(poolId: pool.id!, in: env.store, now: env.time.now, activationDelay: 0)
            env.time.advance(by: 1)
            let tokens = try await other.signIn.initiateAuth(InitiateAuthRequest(
                authFlow: .userPasswordAuth, authParameters: ["USERNAME": "bob", "PASSWORD": "Passw0rd!"], clientId: client.clientId!))
            #expect(JWT.keyId(of: tokens.authenticationResult!.accessToken!) == rotated.kid)
            // Unknown kid: reloaded on demand (at most every few seconds) …
            env.time.advance(by: SigningKeyRing.unknownKeyReloadInterval)
            _ = try await env.service.account.getUser(GetUserRequest(accessToken: tokens.authenticationResult!.accessToken!))
            // … and the feed tells this node without a token asking.
            try await env.service.housekeeping.applyChanges()
            #expect(try await kids(env, pool.id!).first == rotated.kid)
        }
    }

    @Test func keysFromBeforeKeysPerPoolArePublishedUntilTheyExpire() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let legacy = try SigningKey.generate(poolId: "unused", at: env.time.now, activatesAt: env.time.now)
            var shared = legacy
            shared.poolId = nil
            shared.expiresAt = env.time.now + 3600
            try await env.store.write { [shared] in try await $0.insertSigningKey(shared) }
            env.service.housekeeping.keys.forget(poolId: nil)
            #expect(try await kids(env, pool.id!).contains(shared.kid))
            env.time.advance(by: 3601)
            env.service.housekeeping.keys.forget(poolId: nil)
            #expect(!(try await kids(env, pool.id!).contains(shared.kid)))
        }
    }
}
