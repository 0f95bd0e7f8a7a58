import CognateProtocol
import Testing

/// The hex forms SRP values and stored hashes travel in.
struct SRPEncodingTests {
    @Test func hexRoundTripsEveryByteInEitherCase() {
        let bytes = (0...255).map(UInt8.init)
        let hex = SRPEncoding.hexString(bytes)
        #expect(hex.utf8.count == 512)
        #expect(hex.hasPrefix("000102") && hex.hasSuffix("fdfeff"))
        #expect(SRPEncoding.bytes(fromHex: hex) == bytes)
        #expect(SRPEncoding.bytes(fromHex: hex.uppercased()) == bytes)
        #expect(SRPEncoding.hexString(bytes.lazy.map { $0 }) == hex)   // a sequence without contiguous storage
    }

    @Test func anOddLengthReadsAsALeadingZero() {
        #expect(SRPEncoding.bytes(fromHex: "abc") == [0x0a, 0xbc])
        #expect(SRPEncoding.bytes(fromHex: "f") == [0x0f])
        #expect(SRPEncoding.bytes(fromHex: "") == [])
    }

    @Test func anythingButHexDigitsIsRefused() {
        for text in ["0g", "12 4", "+1", "ab-", "é1", "0x12"] {
            #expect(SRPEncoding.bytes(fromHex: text) == nil, "\(text)")
        }
    }

    @Test func minimalHexDropsLeadingZeros() {
        #expect(SRPEncoding.minimalHex([0, 0, 0x0f, 0xa0]) == "fa0")
        #expect(SRPEncoding.minimalHex([0x10]) == "10")
        #expect(SRPEncoding.minimalHex([0, 0]) == "0")
        #expect(SRPEncoding.minimalHex([UInt8]()) == "0")
    }
}
