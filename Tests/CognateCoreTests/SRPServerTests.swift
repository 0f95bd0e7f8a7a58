import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// The server half (GMP) against the shared vectors: it must derive the same values the
/// client half does.
struct SRPServerTests {
    let poolName = "AbCdEfGhI", userId = "testuser", password = "P@ssw0rd!"
    let salt = SRPEncoding.bytes(fromHex: "1f2e3d4c5b6a79887766554433221100")!
    let a = SRPEncoding.bytes(fromHex: String(repeating: "a", count: 64))!
    let b = SRPEncoding.bytes(fromHex: String(repeating: "b", count: 64))!

    @Test func derivesTheVectorKeyAndAcceptsTheClaim() throws {
        let verifier = SRPServer.verifier(salt: salt, realm: poolName, identity: userId, secret: password)
        #expect(SRPEncoding.hexString(verifier).hasPrefix("9e769b88b301cf675dcbe77617741b51"))
        let serverPublic = try #require(SRPServer.serverPublicValue(verifier: verifier, ephemeral: b))
        #expect(SRPEncoding.minimalHex(serverPublic).hasPrefix("3b7ea74d32af68b0e693b92879db3429"))
        let client = SRPClient(ephemeral: a)
        let clientPublic = SRPEncoding.bytes(fromHex: client.publicValueHex)!
        let key = try #require(SRPServer.sessionKey(clientPublic: clientPublic, serverPublic: serverPublic, verifier: verifier, ephemeral: b))
        #expect(SRPEncoding.hexString(key) == "b0f32707fe84e561bae5b0dd61a36c3d")

        let block = Array("opaque-secret-block-0123456789".utf8)
        let claim = try client.passwordClaim(
            realm: poolName, identity: userId, secret: password, saltHex: SRPEncoding.hexString(salt),
            serverPublicHex: SRPEncoding.minimalHex(serverPublic), secretBlock: Data(block).base64EncodedString(),
            date: SRPTimestamp.parse("Tue Nov 3 04:05:06 UTC 2026")!)
        let expected = SRPDerivation.claimSignature(
            sessionKey: key, realm: poolName, identity: userId, secretBlock: block, timestamp: claim.timestamp)
        #expect(Data(expected).base64EncodedString() == claim.signature)
        #expect(claim.signature == "b7TFNMTpFxds36ApgrHsZD/U61AEmXT2dDoKPsLG6NE=")
    }

    @Test func passwordMatchingUsesTheVerifier() {
        let verifier = SRPServer.verifier(salt: salt, realm: poolName, identity: userId, secret: password)
        #expect(SRPServer.matches(secret: password, salt: salt, realm: poolName, identity: userId, verifier: verifier))
        #expect(!SRPServer.matches(secret: "P@ssw0rd?", salt: salt, realm: poolName, identity: userId, verifier: verifier))
        #expect(!SRPServer.matches(secret: password, salt: salt, realm: poolName, identity: "other", verifier: verifier))
    }

    @Test func rejectsZeroClientValue() {
        #expect(!SRPServer.isValidClientPublicValue([0]))
        #expect(!SRPServer.isValidClientPublicValue(SRPGroup.prime))
        #expect(SRPServer.isValidClientPublicValue([2]))
    }
}
