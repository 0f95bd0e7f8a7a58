import CognateProtocol
import Foundation
import Testing

/// `WireJSONEncoder` writes what `WireCoding.makeEncoder()` (Foundation's JSONEncoder) writes.
struct WireJSONEncoderTests {
    /// Both encodings of `value`, parsed back: equal as JSON values (member order aside).
    func expectSameJSON<Value: Encodable>(_ value: Value, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fast = try WireJSONEncoder.encode(value)
        let foundation = try WireCoding.makeEncoder().encode(value)
        let parsedFast = try JSONDecoder().decode(JSONValue.self, from: fast)
        let parsedFoundation = try JSONDecoder().decode(JSONValue.self, from: foundation)
        #expect(parsedFast == parsedFoundation, "\(String(decoding: fast, as: UTF8.self))", sourceLocation: sourceLocation)
    }

    /// Decodes a response as the SDK does, then encodes it both ways.
    func expectSameJSON<Value: WireShape>(_ type: Value.Type, from json: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let value = try WireCoding.makeDecoder().decode(type, from: Data(json.utf8))
        try expectSameJSON(value, sourceLocation: sourceLocation)
    }

    /// Strings scanned eight bytes at a time: every escape at every offset of long strings,
    /// byte for byte as Foundation writes them.
    @Test func longStringsAreWrittenAsFoundationWritesThem() throws {
        struct Text: Encodable { let value: String }
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "é", "😀", "\"", "\\", "/", "\n", "\u{8}", "\u{C}", "\u{0}", "\u{1F}", "\u{7F}", " ", "~"]
        for _ in 0..<1_000 {
            var text = String(repeating: "x", count: Int.random(in: 0...20, using: &generator))
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let at = text.index(text.startIndex, offsetBy: Int.random(in: 0...text.count, using: &generator))
                text.insert(contentsOf: pieces.randomElement(using: &generator)!, at: at)
            }
            text += String(repeating: "y", count: Int.random(in: 0...20, using: &generator))
            let ours = try WireJSONEncoder.encode(Text(value: text))
            let foundations = try WireCoding.makeEncoder().encode(Text(value: text))
            #expect(ours == foundations, "\(text.debugDescription): \(String(decoding: ours, as: UTF8.self))")
        }
    }

    @Test func responsesOfTheHotPathsAndNestedShapes() throws {
        try expectSameJSON(GetUserResponse.self, from: #"""
            {"Username":"alice","UserAttributes":[{"Name":"sub","Value":"1b2c"},{"Name":"email","Value":"a/b\"c@example.com"}],
             "MFAOptions":[{"DeliveryMedium":"SMS","AttributeName":"phone_number"}],"PreferredMfaSetting":"SMS_MFA",
             "UserMFASettingList":["SMS_MFA","SOFTWARE_TOKEN_MFA"]}
            """#)
        try expectSameJSON(InitiateAuthResponse.self, from: #"""
            {"ChallengeParameters":{},"AuthenticationResult":{"AccessToken":"a.b.c","ExpiresIn":3600,"TokenType":"Bearer",
             "RefreshToken":"r","IdToken":"i.d.t","NewDeviceMetadata":{"DeviceKey":"us-east-1_x","DeviceGroupKey":"-g"}}}
            """#)
        try expectSameJSON(InitiateAuthResponse.self, from: #"""
            {"ChallengeName":"PASSWORD_VERIFIER","Session":"s","ChallengeParameters":{"SALT":"ab","SRP_B":"cd","USERNAME":"ü"}}
            """#)
        try expectSameJSON(AdminGetUserResponse.self, from: #"""
            {"Username":"bob","UserAttributes":[],"UserCreateDate":1764086400.123,"UserLastModifiedDate":1764086401,
             "Enabled":true,"UserStatus":"CONFIRMED"}
            """#)
        try expectSameJSON(ListUsersResponse.self, from: #"""
            {"Users":[{"Username":"a","Attributes":[{"Name":"email","Value":"x"}],"UserCreateDate":1.5,"Enabled":false,
             "UserStatus":"FORCE_CHANGE_PASSWORD","MFAOptions":[]}],"PaginationToken":"p"}
            """#)
        try expectSameJSON(EmptyResponse())
        let document = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"a":[1,2.5,null,true,{"b":"c"}],"d":{}}"#.utf8))
        try expectSameJSON(document)
    }

    @Test func escapesStringsAsJSONEncoderDoes() throws {
        var everyASCII = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        everyASCII += "é😀\u{2028}中"
        let fast = try WireJSONEncoder.encode([everyASCII])
        let foundation = try WireCoding.makeEncoder().encode([everyASCII])
        #expect(String(decoding: fast, as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
    }

    @Test func writesNumbersAsJSONEncoderDoes() throws {
        let doubles: [Double] = [0, -0.0, 1, 100, 0.1, 1.5, 1764086400.123, 1e21, 1e-7, 1.2345678901234568e+17, .leastNonzeroMagnitude,
                                 .greatestFiniteMagnitude]
        #expect(try WireJSONEncoder.encode(doubles) == WireCoding.makeEncoder().encode(doubles))
        let integers: [Int] = [0, -1, .max, .min]
        #expect(try WireJSONEncoder.encode(integers) == WireCoding.makeEncoder().encode(integers))
        let floats: [Float] = [0.1, 1e10, 3]
        #expect(try WireJSONEncoder.encode(floats) == WireCoding.makeEncoder().encode(floats))
        #expect(try WireJSONEncoder.encode([Date(timeIntervalSince1970: 1_764_086_400)]) == Data("[1764086400]".utf8))
        #expect(throws: EncodingError.self) { try WireJSONEncoder.encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try WireJSONEncoder.encode(["a": Double.infinity]) }
    }

    @Test func handWrittenEncodingsWithNestedContainers() throws {
        struct Nested: Encodable {
            enum Keys: String, CodingKey { case a, b, c, d, e }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try inner.encode(1, forKey: .b)
                try inner.encodeNil(forKey: .c)
                var list = container.nestedUnkeyedContainer(forKey: .b)
                try list.encode(true)
                try list.encode("x")
                var listed = list.nestedContainer(keyedBy: Keys.self)
                try listed.encode(2.5, forKey: .d)
                try container.encode(Data([0, 1, 2, 255]), forKey: .c)
                try container.encode(["k": [1, 2]], forKey: .d)
                try Optional<Int>.none.encode(to: container.superEncoder(forKey: .e))
            }
        }
        struct Empty: Encodable {
            func encode(to encoder: any Encoder) throws {}
        }
        try expectSameJSON(Nested())
        try expectSameJSON(["empty": Empty()])
        try expectSameJSON([[String: Int]]())
    }
}
