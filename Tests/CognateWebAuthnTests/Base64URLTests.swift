import Testing

@testable import CognateWebAuthn

struct Base64URLTests {
    @Test func roundTripsEveryLengthModuloThree() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) }
            let text = WebAuthnBase64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(WebAuthnBase64URL.decode(text) == bytes)
        }
    }

    @Test func matchesRFC4648() {
        #expect(WebAuthnBase64URL.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(WebAuthnBase64URL.encode(Array("fooba".utf8)) == "Zm9vYmE")
        #expect(WebAuthnBase64URL.encode(Array("f".utf8)) == "Zg")
        #expect(WebAuthnBase64URL.encode([0xfb, 0xff]) == "-_8")
        #expect(WebAuthnBase64URL.decode("-_8") == [0xfb, 0xff])
    }

    @Test func refusesAnythingButStrictUnpaddedBase64URL() {
        #expect(WebAuthnBase64URL.decode("Zg==") == nil)  // padding
        #expect(WebAuthnBase64URL.decode("+/8") == nil)  // standard alphabet
        #expect(WebAuthnBase64URL.decode("Zm9v YmFy") == nil)  // whitespace
        #expect(WebAuthnBase64URL.decode("Z") == nil)  // impossible length
        #expect(WebAuthnBase64URL.decode("Zh") == nil)  // non-zero unused bits: a second spelling of "Zg"
        #expect(WebAuthnBase64URL.decode("Zm9") == nil)
        #expect(WebAuthnBase64URL.decode("") == [])
    }
}
