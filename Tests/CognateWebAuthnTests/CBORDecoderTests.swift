import Testing

@testable import CognateWebAuthn

struct CBORDecoderTests {
    let decoder = CBORDecoder()

    func decode(_ hex: String) throws(CBORError) -> CBORValue { try decoder.decode([UInt8](hex: hex)) }

    @Test func integersAtEveryWidth() throws {
        #expect(try decode("00") == .unsigned(0))
        #expect(try decode("17") == .unsigned(23))
        #expect(try decode("1818") == .unsigned(24))
        #expect(try decode("190100") == .unsigned(256))
        #expect(try decode("1a00010000") == .unsigned(65536))
        #expect(try decode("1b0000000100000000") == .unsigned(1 << 32))
        #expect(try decode("1bffffffffffffffff") == .unsigned(.max))
        #expect(try decode("20") == .negative(0))
        #expect(try decode("20").intValue == -1)
        #expect(try decode("390100").intValue == -257)
        #expect(try decode("3bffffffffffffffff").intValue == nil)
        #expect(try decode("1bffffffffffffffff").intValue == nil)
    }

    @Test func stringsArraysMapsAndSimpleValues() throws {
        #expect(try decode("43010203") == .bytes([1, 2, 3]))
        #expect(try decode("40") == .bytes([]))
        #expect(try decode("6461626364") == .text("abcd"))
        #expect(try decode("62c3a9") == .text("é"))
        #expect(
            try decode("8301820203820405")
                == .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])]))
        #expect(try decode("f4") == .bool(false))
        #expect(try decode("f5") == .bool(true))
        #expect(try decode("f6") == .null)
        let map = try #require(try decode("a2616101206162").mapValue)
        #expect(map["a"] == .unsigned(1))
        #expect(map[-1] == .text("b"))
        #expect(map.count == 2)
    }

    @Test func mapKeysInAnyOrderAreAccepted() throws {
        // 3, 1 rather than the canonical 1, 3: accepted, order carries no meaning.
        let map = try #require(try decode("a203260102").mapValue)
        #expect(map[1] == .unsigned(2))
        #expect(map[3] == .int(-7))
    }

    @Test func prefixDecodingReportsTheLength() throws {
        let (value, length) = try decoder.decodePrefix([UInt8](hex: "a10102ffff"))
        #expect(value.mapValue?[1] == .unsigned(2))
        #expect(length == 3)
    }

    @Test func trailingBytesAreRefused() {
        #expect(throws: CBORError.trailingBytes(offset: 1)) { try decode("0000") }
        #expect(throws: CBORError.trailingBytes(offset: 3)) { try decode("a1010200") }
    }

    @Test func truncatedInputIsRefused() {
        #expect(throws: CBORError.truncated(offset: 0)) { try decode("") }
        #expect(throws: CBORError.truncated(offset: 1)) { try decode("19ff") }
        #expect(throws: CBORError.lengthTooLarge(offset: 0)) { try decode("430102") }
        #expect(throws: CBORError.lengthTooLarge(offset: 0)) { try decode("8201") }
        #expect(throws: CBORError.truncated(offset: 2)) { try decode("821901") }
        #expect(throws: CBORError.truncated(offset: 3)) { try decode("a20102") }
    }

    @Test func hugeDeclaredLengthsAreRefusedBeforeAllocating() {
        #expect(throws: CBORError.lengthTooLarge(offset: 0)) { try decode("5bffffffffffffffff00") }
        #expect(throws: CBORError.lengthTooLarge(offset: 0)) { try decode("9bffffffffffffffff00") }
        #expect(throws: CBORError.lengthTooLarge(offset: 0)) { try decode("bb000000010000000000") }
    }

    @Test func indefiniteLengthsAreRefused() {
        #expect(throws: CBORError.indefiniteLength(offset: 0)) { try decode("5f4101ff") }
        #expect(throws: CBORError.indefiniteLength(offset: 0)) { try decode("7f6161ff") }
        #expect(throws: CBORError.indefiniteLength(offset: 0)) { try decode("9f01ff") }
        #expect(throws: CBORError.indefiniteLength(offset: 0)) { try decode("bf0102ff") }
        #expect(throws: CBORError.indefiniteLength(offset: 0)) { try decode("ff") }
        #expect(throws: CBORError.indefiniteLength(offset: 0)) { try decode("1f") }
    }

    @Test func reservedAdditionalInformationIsRefused() {
        #expect(throws: CBORError.reservedAdditionalInformation(offset: 0)) { try decode("1c") }
        #expect(throws: CBORError.reservedAdditionalInformation(offset: 1)) { try decode("813e") }
    }

    @Test func nonShortestArgumentsAreRefused() {
        #expect(throws: CBORError.nonShortestEncoding(offset: 0)) { try decode("1817") }
        #expect(throws: CBORError.nonShortestEncoding(offset: 0)) { try decode("1900ff") }
        #expect(throws: CBORError.nonShortestEncoding(offset: 0)) { try decode("1a0000ffff") }
        #expect(throws: CBORError.nonShortestEncoding(offset: 0)) { try decode("1b00000000ffffffff") }
        #expect(throws: CBORError.nonShortestEncoding(offset: 0)) { try decode("3800") }
        #expect(throws: CBORError.nonShortestEncoding(offset: 0)) { try decode("580101") }
        #expect(throws: CBORError.nonShortestEncoding(offset: 0)) { try decode("980101") }
    }

    @Test func tagsFloatsAndOtherSimpleValuesAreRefused() {
        #expect(throws: CBORError.unsupportedTag(offset: 0)) { try decode("c11a514b67b0") }
        #expect(throws: CBORError.unsupportedSimpleValue(offset: 0)) { try decode("f7") }
        #expect(throws: CBORError.unsupportedSimpleValue(offset: 0)) { try decode("f93c00") }
        #expect(throws: CBORError.unsupportedSimpleValue(offset: 0)) { try decode("fa47c35000") }
        #expect(throws: CBORError.unsupportedSimpleValue(offset: 0)) { try decode("fb3ff199999999999a") }
        #expect(throws: CBORError.unsupportedSimpleValue(offset: 0)) { try decode("f0") }
        #expect(throws: CBORError.unsupportedSimpleValue(offset: 0)) { try decode("f820") }
    }

    @Test func invalidUTF8IsRefused() {
        #expect(throws: CBORError.invalidUTF8(offset: 0)) { try decode("62c328") }
        #expect(throws: CBORError.invalidUTF8(offset: 0)) { try decode("62c0af") }  // overlong "/"
        #expect(throws: CBORError.invalidUTF8(offset: 0)) { try decode("63eda080") }  // a surrogate
    }

    @Test func duplicateMapKeysAreRefused() {
        #expect(throws: CBORError.duplicateMapKey(offset: 3)) { try decode("a201020103") }
        #expect(throws: CBORError.duplicateMapKey(offset: 4)) { try decode("a2616101616102") }
        // Equal composite keys count too.
        #expect(throws: CBORError.duplicateMapKey(offset: 4)) { try decode("a28101008101f5") }
    }

    @Test func nestingBeyondTheLimitIsRefused() throws {
        let shallow = CBORDecoder(maxDepth: 3)
        #expect(try shallow.decode([UInt8](hex: "818100")) == .array([.array([.unsigned(0)])]))
        #expect(try shallow.decode([UInt8](hex: "818180")) == .array([.array([.array([])])]))
        #expect(throws: CBORError.nestingTooDeep(offset: 3)) { try shallow.decode([UInt8](hex: "81818100")) }
        let deep = [UInt8](repeating: 0x81, count: 100_000) + [0x00]
        #expect(throws: CBORError.nestingTooDeep(offset: 16)) { try CBORDecoder().decode(deep) }
    }

    @Test func oversizedInputIsRefused() {
        let small = CBORDecoder(maxInputBytes: 4)
        #expect(throws: CBORError.inputTooLarge(size: 5, limit: 4)) { try small.decode([UInt8](hex: "4401020304")) }
    }

    @Test func mapsBuiltInCodeRefuseDuplicates() {
        #expect(CBORMap([(.unsigned(1), .null), (.unsigned(1), .null)]) == nil)
        #expect(CBORMap([(.unsigned(1), .null), (.int(-1), .null)])?.count == 2)
    }
}
