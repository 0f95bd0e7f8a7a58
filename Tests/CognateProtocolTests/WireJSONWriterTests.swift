import CognateIdentityProtocol
import CognateProtocol
import Foundation
import Testing

/// The generated `writeJSON(to:)` of every shape of both models writes the bytes its
/// `encode(to:)` writes through the encoder (itself tested against Foundation's JSONEncoder in
/// WireJSONEncoderTests), for arbitrary values: members present or not, strings needing every
/// escape, empty and nested lists and maps, documents.
struct WireJSONWriterTests {
    static let shapeTypes: [any WireShape.Type] = CognitoAPI.shapeTypes + CognitoIdentityAPI.shapeTypes

    @Test func everyShapeWritesWhatItsEncodeWrites() throws {
        #expect(Self.shapeTypes.count > 400)
        var differences: [String] = []
        var membersWritten = 0
        for (index, type) in Self.shapeTypes.enumerated() {
            for round in 0..<40 {
                var generator = SeededRandom(seed: UInt64(index * 1000 + round))
                let (written, reference) = try Self.bothEncodings(of: type, generator: &generator)
                membersWritten += written.count
                if written != reference {
                    differences.append("\(type) round \(round):\n written   \(String(decoding: written, as: UTF8.self))\n"
                        + " reference \(String(decoding: reference, as: UTF8.self))")
                }
            }
        }
        #expect(differences.isEmpty, "\(differences.count) differences; first: \(differences.first ?? "")")
        #expect(membersWritten > 1_000_000, "the values are too small to test much: \(membersWritten) bytes")
    }

    @Test func theEncoderTakesTheGeneratedWriterAndTheHandWrittenOnesKeepTheirs() throws {
        let response = GetUserResponse(username: "a/b", userAttributes: [AttributeType(name: "sub", value: "x")])
        #expect(String(decoding: try WireJSONEncoder.encode(response), as: UTF8.self)
            == #"{"Username":"a\/b","UserAttributes":[{"Name":"sub","Value":"x"}]}"#)
        // Seen as Encodable only, it still finds the shape's own writer.
        let erased: any Encodable = response
        #expect(try WireJSONEncoder.encode(erased) == WireJSONEncoder.encodeThroughEncoder(response))
        #expect(String(decoding: try WireJSONEncoder.encode(EmptyResponse()), as: UTF8.self) == "{}")
    }

    /// An arbitrary value of `type`, written by its generated writer and through `encode(to:)`.
    static func bothEncodings<Shape: WireShape>(of type: Shape.Type, generator: inout SeededRandom) throws -> (Data, Data) {
        let decoder = ArbitraryValueDecoder(generator: generator)
        let value = try Shape(from: decoder)
        generator = decoder.generator
        return (try WireJSONEncoder.encode(value), try WireJSONEncoder.encodeThroughEncoder(value))
    }
}

/// A `Decoder` that makes up a value of whatever type decodes from it: each member present or
/// not, strings from a set that needs every kind of escape, lists and maps of 0–3 entries,
/// shallower the deeper they nest. Required members it leaves out get the shape's placeholder
/// (a validation report is in `userInfo`, so the generated decoders collect, not throw).
final class ArbitraryValueDecoder: Decoder {
    var generator: SeededRandom
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    static let strings = [
        "", "a", "alice", "a/b", #"quote " and \ backslash"#, "tab\tnew\nline\r\u{8}\u{C}", "\u{0}\u{1}\u{1F}\u{7F}",
        "é中😀\u{2028}", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln", "https://example.com/a?b=c&d=e", "SMS_MFA",
    ]

    init(generator: SeededRandom, codingPath: [any CodingKey] = []) {
        self.generator = generator
        self.codingPath = codingPath
        self.userInfo = [.wireValidation: WireValidationReport()]
    }

    var depth: Int { codingPath.count }

    func chance(_ percent: UInt64) -> Bool { generator.next() % 100 < percent }
    func count() -> Int { depth > 8 ? 0 : Int(generator.next() % 4) }
    func string() -> String { Self.strings[Int(generator.next() % UInt64(Self.strings.count))] }

    func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) -> Integer {
        switch generator.next() % 4 {
        case 0: return 0
        case 1: return Integer.max
        case 2: return Integer.min
        default: return Integer(truncatingIfNeeded: generator.next())
        }
    }

    func double() -> Double {
        [0, 1.5, 1_764_086_400.123, -2, 1e21, 0.1][Int(generator.next() % 6)]
    }

    func document(depth: Int) -> JSONValue {
        switch generator.next() % (depth > 3 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2: return .number(double())
        case 3: return .string(string())
        case 4: return .array((0..<count()).map { _ in document(depth: depth + 1) })
        default: return .object(Dictionary((0..<count()).map { _ in (string(), document(depth: depth + 1)) }) { a, _ in a })
        }
    }

    /// Any value: a document, a scalar, or a type decoding itself from a decoder one level deeper.
    func value<Value: Decodable>(_ type: Value.Type, at key: (any CodingKey)?) throws -> Value {
        if type == JSONValue.self { return document(depth: 0) as! Value }
        if type == String.self { return string() as! Value }
        if type == Bool.self { return chance(50) as! Value }
        if type == Double.self { return double() as! Value }
        if type == Int.self { return integer(Int.self) as! Value }
        if type == Int32.self { return integer(Int32.self) as! Value }
        if type == UInt8.self { return integer(UInt8.self) as! Value }
        let child = ArbitraryValueDecoder(generator: generator, codingPath: codingPath + [key ?? ArbitraryKey(stringValue: "x")])
        defer { generator = child.generator }
        return try Value(from: child)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { UnkeyedContainer(decoder: self) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(decoder: self) }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: ArbitraryValueDecoder
        let allKeys: [Key]
        var codingPath: [any CodingKey] { decoder.codingPath }

        init(decoder: ArbitraryValueDecoder) {
            self.decoder = decoder
            // The keys of a map (the shapes' own keys are asked for by name).
            allKeys = (0..<decoder.count()).compactMap { _ in Key(stringValue: decoder.string()) }
        }

        func contains(_ key: Key) -> Bool { decoder.depth < 8 && decoder.chance(70) }
        func decodeNil(forKey key: Key) throws -> Bool { !contains(key) }
        func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value { try decoder.value(type, at: key) }
        func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
            contains(key) ? try decoder.value(type, at: key) : nil
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try ArbitraryValueDecoder(generator: decoder.generator, codingPath: codingPath + [key]).container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try ArbitraryValueDecoder(generator: decoder.generator, codingPath: codingPath + [key]).unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let decoder: ArbitraryValueDecoder
        let count: Int?
        var currentIndex = 0
        var codingPath: [any CodingKey] { decoder.codingPath }
        var isAtEnd: Bool { currentIndex >= count ?? 0 }

        init(decoder: ArbitraryValueDecoder) {
            self.decoder = decoder
            count = decoder.count()
        }

        mutating func decodeNil() throws -> Bool { false }
        mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            defer { currentIndex += 1 }
            return try decoder.value(type, at: ArbitraryKey(intValue: currentIndex))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            defer { currentIndex += 1 }
            return try decoder.container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            defer { currentIndex += 1 }
            return try decoder.unkeyedContainer()
        }
        mutating func superDecoder() throws -> any Decoder { decoder }
    }

    struct SingleValueContainer: SingleValueDecodingContainer {
        let decoder: ArbitraryValueDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }
        func decodeNil() -> Bool { false }
        func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try decoder.value(type, at: nil) }
    }
}

struct ArbitraryKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) { (self.stringValue, intValue) = (stringValue, nil) }
    init(intValue: Int) { (stringValue, self.intValue) = ("\(intValue)", intValue) }
}
