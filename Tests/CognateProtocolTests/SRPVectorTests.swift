import BigInt
import Foundation
import Testing

@testable import CognateProtocol

/// The shared vectors of compat/vectors/srp.json (also checked against pycognito by
/// compat/test_srp_vectors.py): the SDK's SRP client must reproduce Cognito's math exactly.
struct SRPVectorTests {
    struct Vectors: Decodable {
        struct User: Decodable {
            var poolId, userId, password, saltHex, aHex, bHex, secretBlockBase64, timestamp: String
            var expected: [String: String]
        }
        struct Device: Decodable {
            var deviceGroupKey, deviceKey, devicePassword, saltHex, aHex, bHex, secretBlockBase64, timestamp: String
            var expected: [String: String]
        }
        var user: User
        var device: Device
    }

    static let vectors: Vectors = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../compat/vectors/srp.json").standardized
        return try! JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
    }()

    static let n = BigUInt(Data(SRPGroup.prime))
    static let g = BigUInt(2)

    /// What a server derives from a verifier and `b`: `B = (k·v + g^b) mod N`.
    static func serverPublic(verifier v: BigUInt, b: BigUInt) -> BigUInt {
        (BigUInt(Data(SRPGroup.multiplier)) * v + g.power(b, modulus: n)) % n
    }

    static func hex(_ value: BigUInt) -> String { SRPEncoding.minimalHex(Array(value.serialize())) }

    @Test func groupConstantsMatchCognito() {
        #expect(SRPEncoding.hexString(SRPGroup.multiplier) == "538282c4354742d7cbbde2359fcf67f9f5b3a6b08791e5011b43b8a5b66d9ee6")
        #expect(SRPGroup.prime.count == 384)
    }

    @Test func userPasswordClaimMatchesVector() throws {
        let v = Self.vectors.user
        let salt = SRPEncoding.bytes(fromHex: v.saltHex)!
        let realm = SRPDerivation.poolName(ofPoolId: v.poolId)
        let x = SRPDerivation.privateKey(salt: salt, realm: realm, identity: v.userId, secret: v.password)
        #expect(SRPEncoding.hexString(x) == v.expected["x"])
        let verifier = Self.g.power(BigUInt(Data(x)), modulus: Self.n)
        #expect(Self.hex(verifier).hasPrefix(v.expected["vPrefix"]!))

        let client = SRPClient(ephemeral: SRPEncoding.bytes(fromHex: v.aHex)!)
        #expect(client.publicValueHex.hasPrefix(v.expected["APrefix"]!))
        let bPublic = Self.serverPublic(verifier: verifier, b: BigUInt(v.bHex, radix: 16)!)
        #expect(Self.hex(bPublic).hasPrefix(v.expected["BPrefix"]!))
        let u = SRPDerivation.scrambler(clientPublic: client.publicValue, serverPublic: Array(bPublic.serialize()))
        #expect(SRPEncoding.hexString(u) == v.expected["u"])

        let claim = try client.passwordClaim(
            realm: realm, identity: v.userId, secret: v.password, saltHex: v.saltHex, serverPublicHex: Self.hex(bPublic),
            secretBlock: v.secretBlockBase64, date: SRPTimestamp.parse(v.timestamp)!)
        #expect(claim.timestamp == v.timestamp)
        #expect(claim.signature == v.expected["signature"])
    }

    @Test func devicePasswordClaimMatchesVector() throws {
        let v = Self.vectors.device
        let salt = SRPEncoding.bytes(fromHex: v.saltHex)!
        let registered = SRPClient.deviceVerifier(
            deviceGroupKey: v.deviceGroupKey, deviceKey: v.deviceKey, devicePassword: v.devicePassword, salt: salt)
        #expect(registered.salt == v.expected["saltBase64"])
        #expect(registered.passwordVerifier.hasPrefix(v.expected["passwordVerifierPrefix"]!))

        let verifier = BigUInt(Data(base64Encoded: registered.passwordVerifier)!)
        let bPublic = Self.serverPublic(verifier: verifier, b: BigUInt(v.bHex, radix: 16)!)
        let client = SRPClient(ephemeral: SRPEncoding.bytes(fromHex: v.aHex)!)
        let claim = try client.passwordClaim(
            realm: v.deviceGroupKey, identity: v.deviceKey, secret: v.devicePassword, saltHex: v.saltHex,
            serverPublicHex: Self.hex(bPublic), secretBlock: v.secretBlockBase64, date: SRPTimestamp.parse(v.timestamp)!)
        #expect(claim.signature == v.expected["signature"])
    }

    @Test func refusesUnsafeServerValue() {
        let client = SRPClient()
        #expect(throws: SRPClient.ClaimError.unsafeServerValue) {
            try client.passwordClaim(
                realm: "p", identity: "u", secret: "pw", saltHex: "01", serverPublicHex: SRPGroup.primeHex,
                secretBlock: "AA==")
        }
    }

    @Test(arguments: [
        ([0x14], [0x14]), ([0xec], [0x00, 0xec]), ([0x00, 0x0a, 0xbc], [0x0a, 0xbc]), ([0x80, 0x00], [0x00, 0x80, 0x00]),
        ([], [0x00]),
    ] as [([UInt8], [UInt8])])
    func padIsJavaToByteArray(input: [UInt8], expected: [UInt8]) {
        #expect(SRPEncoding.pad(input) == expected)
    }
}
