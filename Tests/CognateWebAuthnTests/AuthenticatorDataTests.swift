import Crypto
import Testing

@testable import CognateWebAuthn

struct AuthenticatorDataTests {
    static let rpIdHash = Array(SHA256.hash(data: Array("cognate.test".utf8)))
    static let coseKey = COSEKeyTests.ec2Key(P256.Signing.PrivateKey().publicKey)

    static func bytes(flags: UInt8, counter: UInt32 = 7, credentialIdLength: Int = 16, trailer: [UInt8] = []) -> [UInt8] {
        var bytes = rpIdHash + [flags] + CBORTestEncoder.bigEndian(UInt64(counter), bytes: 4)
        if flags & 0x40 != 0 {
            bytes += [UInt8](repeating: 0xaa, count: 16)
            bytes += CBORTestEncoder.bigEndian(UInt64(credentialIdLength), bytes: 2)
            bytes += [UInt8](repeating: 0xcc, count: credentialIdLength)
            bytes += coseKey
        }
        return bytes + trailer
    }

    @Test func fixedPartAlone() throws {
        let data = try AuthenticatorData(Self.bytes(flags: 0x05, counter: 0x0102_0304))
        #expect(data.rpIdHash == Self.rpIdHash)
        #expect(data.flags == [.userPresent, .userVerified])
        #expect(data.signCount == 0x0102_0304)
        #expect(data.attestedCredentialData == nil)
        #expect(data.extensions == nil)
    }

    @Test func attestedCredentialDataAndExtensions() throws {
        let extensions = CBORTestEncoder.encode(CBORTestEncoder.map([(.text("credProtect"), .unsigned(2))]))
        let data = try AuthenticatorData(Self.bytes(flags: 0xc5, trailer: extensions))
        let credential = try #require(data.attestedCredentialData)
        #expect(credential.aaguid == [UInt8](repeating: 0xaa, count: 16))
        #expect(credential.aaguidString == "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa")
        #expect(credential.credentialId == [UInt8](repeating: 0xcc, count: 16))
        #expect(credential.credentialPublicKey == Self.coseKey)
        #expect(data.extensions?["credProtect"] == .unsigned(2))
    }

    @Test func everyFlagIsRead() throws {
        let data = try AuthenticatorData(Self.bytes(flags: 0x1d))
        #expect(data.flags == [.userPresent, .userVerified, .backupEligible, .backedUp])
        #expect(!data.flags.contains(.attestedCredentialData))
    }

    @Test func credentialIdOf1023BytesIsTheLimit() throws {
        #expect(
            try AuthenticatorData(Self.bytes(flags: 0x41, credentialIdLength: 1023)).attestedCredentialData?.credentialId.count
                == 1023)
        #expect(throws: WebAuthnError.malformed(.authenticatorData, "credential ID of 1024 bytes; at most 1023")) {
            try AuthenticatorData(Self.bytes(flags: 0x41, credentialIdLength: 1024))
        }
    }

    @Test func lengthsMustMatchTheFlagsExactly() {
        #expect(throws: WebAuthnError.malformed(.authenticatorData, "36 bytes; at least 37 needed")) {
            try AuthenticatorData(Array(Self.bytes(flags: 0x01).dropLast()))
        }
        #expect(throws: WebAuthnError.malformed(.authenticatorData, "1 bytes follow what the flags announce")) {
            try AuthenticatorData(Self.bytes(flags: 0x01, trailer: [0]))
        }
        #expect(throws: WebAuthnError.malformed(.authenticatorData, "1 bytes follow what the flags announce")) {
            try AuthenticatorData(Self.bytes(flags: 0x41, trailer: [0xa0]))  // extensions without ED
        }
        // AT announced, nothing there.
        #expect(throws: WebAuthnError.malformed(.authenticatorData, "attested credential data is truncated")) {
            try AuthenticatorData(Self.bytes(flags: 0x01).flipping(at: 32, mask: 0x40))
        }
        // ED announced, nothing there.
        #expect(throws: WebAuthnError.malformedCBOR(.extensions, .truncated(offset: 0))) {
            try AuthenticatorData(Self.bytes(flags: 0x81))
        }
        // A credential ID longer than what follows.
        #expect(throws: WebAuthnError.malformed(.authenticatorData, "credential ID is truncated")) {
            try AuthenticatorData(Array(Self.bytes(flags: 0x41, credentialIdLength: 16).prefix(37 + 18 + 10)))
        }
    }

    @Test func extensionsMustBeOneMap() {
        #expect(throws: WebAuthnError.malformed(.extensions, "extensions are not a CBOR map")) {
            try AuthenticatorData(Self.bytes(flags: 0x81, trailer: [0x80]))
        }
        #expect(throws: WebAuthnError.malformedCBOR(.extensions, .trailingBytes(offset: 1))) {
            try AuthenticatorData(Self.bytes(flags: 0x81, trailer: [0xa0, 0xa0]))
        }
    }

    @Test func credentialKeyMustBeWellFormedCBOR() {
        var bytes = Self.bytes(flags: 0x41)
        bytes[37 + 18 + 16] = 0xbf  // the key's map head made indefinite
        #expect(throws: WebAuthnError.malformedCBOR(.credentialPublicKey, .indefiniteLength(offset: 0))) {
            try AuthenticatorData(bytes)
        }
    }

    @Test func backedUpWithoutBackupEligibilityIsRefused() {
        #expect(throws: WebAuthnError.malformed(.authenticatorData, "BS is set without BE")) {
            try AuthenticatorData(Self.bytes(flags: 0x11))
        }
    }
}
