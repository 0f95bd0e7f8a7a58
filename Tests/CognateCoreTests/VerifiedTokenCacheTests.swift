import Foundation
import Testing

@testable import CognateCore

/// The cache of verified access tokens: a token verified with keys read before the cache was
/// emptied (a key retired meanwhile) is not added after it.
struct VerifiedTokenCacheTests {
    let claims = AccessTokenClaims(
        poolId: "us-east-1_pool", clientId: "client", sub: "sub", username: "user", originJti: "family",
        scopes: [], expiresAt: Date().timeIntervalSince1970 + 3600, authTime: Date().timeIntervalSince1970)

    @Test func aTokenVerifiedBeforeAKeyChangeIsNotAddedAfterIt() {
        let cache = VerifiedTokenCache()
        let before = cache.generation
        cache.removeAll()
        cache.insert("header.payload.signature", claims: claims, now: Date(), generation: before)
        #expect(cache.claims(of: "header.payload.signature") == nil)

        cache.insert("header.payload.signature", claims: claims, now: Date(), generation: cache.generation)
        #expect(cache.claims(of: "header.payload.signature")?.sub == "sub")
        #expect(cache.claims(of: "header.payload.signature-other") == nil)
    }

    @Test func emptyingTheCacheDropsWhatItHeld() {
        let cache = VerifiedTokenCache()
        cache.insert("a.b.c", claims: claims, now: Date(), generation: cache.generation)
        cache.removeAll()
        #expect(cache.claims(of: "a.b.c") == nil)
    }
}
