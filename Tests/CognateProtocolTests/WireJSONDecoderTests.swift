import CognateIdentityProtocol
import Foundation
import Testing

@testable import CognateProtocol

/// The server's request decoder against Foundation's JSONDecoder, the reference it replaces:
/// for every body, the same shape (or the same validation report), or the same DecodingError.
struct WireJSONDecoderTests {
    /// Decodes `body` as `type` both ways and describes the outcome; nil where they agree.
    static func disagreement<Shape: WireShape>(_ type: Shape.Type, _ body: [UInt8]) -> String? {
        let data = Data(body)
        let ours = outcome { report in try WireJSONDecoder.decode(type, from: data, report: report) }
        let foundations = outcome { report in try WireCoding.makeDecoder(validating: report).decode(type, from: data) }
        if ours == foundations { return nil }
        if case .failed(let mine) = ours, case .failed(let theirs) = foundations, mine.sameFailure(inAnotherMapKeyOf: theirs) {
            return nil
        }
        // The failures of a map's entries come in its iteration order, which two dictionaries
        // of the same entries need not share.
        if case .decoded(let mine, let mineFailed) = ours, case .decoded(let theirs, let theirsFailed) = foundations,
            mine == theirs, mineFailed.sorted() == theirsFailed.sorted()
        {
            return nil
        }
        return "\(type) \(String(decoding: body, as: UTF8.self).debugDescription):\n ours \(ours)\n Foundation's \(foundations)"
    }

    enum Outcome<Shape: WireShape>: Equatable {
        case decoded(Shape, failures: [String])
        case failed(Failure)
    }

    /// A DecodingError by what the server's answer is made of.
    struct Failure: Equatable, CustomStringConvertible {
        let kind: String
        let type: String
        let path: [String]

        init(_ error: DecodingError) {
            func path(_ keys: [any CodingKey]) -> [String] { keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue } }
            switch error {
            case .typeMismatch(let type, let context): (kind, self.type, self.path) = ("typeMismatch", "\(type)", path(context.codingPath))
            case .valueNotFound(let type, let context): (kind, self.type, self.path) = ("valueNotFound", "\(type)", path(context.codingPath))
            case .keyNotFound(let key, let context):
                (kind, self.type, self.path) = ("keyNotFound", key.stringValue, path(context.codingPath))
            case .dataCorrupted(let context): (kind, self.type, self.path) = ("dataCorrupted", "", path(context.codingPath))
            @unknown default: (kind, self.type, self.path) = ("unknown", "", [])
            }
        }

        var description: String { "\(kind) \(type) at \(path)" }

        /// Foundation reads a map's keys in hash order, the server in document order: of two
        /// bad values in one map, each may report another. Same failure, sibling key of a map
        /// (the maps of the shapes these tests use, by name).
        func sameFailure(inAnotherMapKeyOf other: Failure) -> Bool {
            let maps: Set = ["ClientMetadata", "AuthParameters", "UserPoolTags", "Settings", "Logins", "a", "b"]
            return kind == other.kind && type == other.type && path.count == other.path.count && path.count >= 2
                && path.dropLast() == other.path.dropLast() && maps.contains(path[path.count - 2])
        }
    }

    static func outcome<Shape: WireShape>(_ decode: (WireValidationReport) throws -> Shape) -> Outcome<Shape> {
        let report = WireValidationReport()
        do {
            return .decoded(try decode(report), failures: report.failures)
        } catch let error as DecodingError {
            return .failed(Failure(error))
        } catch {
            return .failed(Failure(.dataCorrupted(.init(codingPath: [], debugDescription: "\(error)"))))
        }
    }

    static func expectAgreement<Shape: WireShape>(_ type: Shape.Type, _ body: String,
                                                  sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(disagreement(type, Array(body.utf8)) == nil, sourceLocation: sourceLocation)
    }

    @Test func membersOfEveryKindReadAsFoundationReadsThem() {
        Self.expectAgreement(GetUserRequest.self, #"{"AccessToken":"eyJ.abc-_=.x"}"#)
        Self.expectAgreement(GetUserRequest.self, #"{}"#)
        Self.expectAgreement(GetUserRequest.self, #"{"AccessToken":null}"#)
        Self.expectAgreement(GetUserRequest.self, #"{"AccessToken":"bad token!"}"#)
        Self.expectAgreement(SignUpRequest.self, """
            {"ClientId":"abc","Username":"zoë","Password":"Passw0rd!","UserAttributes":[{"Name":"email","Value":"z@x.io"},
            {"Name":"custom:n","Value":"\\u00e9\\ud83d\\ude00\\n\\t\\"\\\\\\/"}],"ClientMetadata":{"a":"1","b":""},
            "AnalyticsMetadata":{"AnalyticsEndpointId":"e"},"UserContextData":{"EncodedData":"d","IpAddress":"1.2.3.4"},
            "ValidationData":[]}
            """)
        Self.expectAgreement(CreateUserPoolRequest.self, """
            {"PoolName":"p","Policies":{"PasswordPolicy":{"MinimumLength":8.0,"RequireNumbers":true,
            "TemporaryPasswordValidityDays":1e1}},"AutoVerifiedAttributes":["email","phone_number","other"],
            "Schema":[{"Name":"n","AttributeDataType":"Number","NumberAttributeConstraints":{"MinValue":"1"}}],
            "MfaConfiguration":"OFF","UserPoolTags":{"k":"v"},"DeletionProtection":"ACTIVE"}
            """)
        Self.expectAgreement(UpdateUserPoolClientRequest.self, """
            {"UserPoolId":"us-east-1_abc","ClientId":"c","RefreshTokenValidity":-1,"AccessTokenValidity":2147483647,
            "IdTokenValidity":0,"TokenValidityUnits":{"AccessToken":"hours"},"ExplicitAuthFlows":["ALLOW_USER_SRP_AUTH"],
            "AllowedOAuthFlowsUserPoolClient":false}
            """)
        Self.expectAgreement(InitiatePointInTimeRecoveryRequest.self, #"{"UserPoolId":"p","RestoreTimestamp":1795000000.25}"#)
        Self.expectAgreement(CreateManagedLoginBrandingRequest.self, """
            {"UserPoolId":"p","ClientId":"c","Settings":{"a":[1,"x",null,true,{"b":-0.5e-3}],"c":{}},
            "Assets":[{"Category":"FORM_LOGO","ColorMode":"LIGHT","Extension":"PNG","Bytes":"aGVsbG8="}]}
            """)
        Self.expectAgreement(GetIdInput.self, #"{"IdentityPoolId":"us-east-1:x","Logins":{"cognito-idp":"t"}}"#)
    }

    @Test func wrongTypesNullsAndBadNumbersFailAsFoundationFails() {
        for body in [
            #"{"AccessToken":1}"#, #"{"AccessToken":true}"#, #"{"AccessToken":[]}"#, #"{"AccessToken":{}}"#,
            "[]", "1", "null", "\"x\"", "", " ", "{", "}", "{} x", "{},", "{'a':1}", "{\"AccessToken\" \"x\"}",
            #"{"AccessToken":"a","AccessToken":"b"}"#, #"{"AccessToken":"a","AccessToken":1}"#,
            #"{"AccessToken":"x",}"#, "{,}", #"{"AccessToken":"x",,}"#, "\u{FEFF}{}", "\t{}\r\n", "\u{0B}{}",
            #"{"AccessToken":"\ud800"}"#, #"{"AccessToken":"\udc00"}"#, #"{"AccessToken":"\ud800x"}"#,
            #"{"AccessToken":"\u12"}"#, #"{"AccessToken":"\x"}"#, "{\"AccessToken\":\"a\tb\"}",
            #"{"\u0041ccessToken":"x"}"#, #"{"b":01,"AccessToken":"x"}"#, #"{"b":1.,"AccessToken":"x"}"#,
            #"{"b":+1}"#, #"{"b":.5}"#, #"{"b":NaN}"#, #"{"b":Infinity}"#, #"{"b":0x10}"#, #"{"b":1e5e5}"#,
            #"{"b":tru}"#, #"{"b":nul}"#, #"{"b":[1,],"AccessToken":"y"}"#, #"{"b":[,1]}"#, #"{"b":[1,,2]}"#,
            #"{"b":"\u"ab"","AccessToken":"x"}"#, #"{"b":"\u1"b"","AccessToken":"x"}"#,
            #"{"b":"\uab\\","AccessToken":"x"}"#, #"{"b":"\u12"}"#, #"{"b":"\u"}"#,
        ] {
            Self.expectAgreement(GetUserRequest.self, body)
        }
        for number in ["1.0", "1e2", "1.5", "-0", "2147483648", "-2147483648", "-2147483649", "01", "-01", "1.",
                       "10e-1", "2147483647.00000000001", "-2147483648.5", "1e99999999999999999999", "0e5", "0.5e1",
                       "123456789012", "1E+2", "1e-400", "\"1\"", "true", "null", "[]"] {
            Self.expectAgreement(UpdateUserPoolClientRequest.self, #"{"UserPoolId":"p","ClientId":"c","IdTokenValidity":\#(number)}"#)
            if !["0e5"].contains(number) {
                Self.expectAgreement(InitiatePointInTimeRecoveryRequest.self, #"{"UserPoolId":"p","RestoreTimestamp":\#(number)}"#)
            }
        }
        for value in ["1e400", "-1e400", "1e-310", "4.9e-324", "0e-999", "12345678901234567890123", "-0.0", "1e-320",
                      "0.5e-400", "0e400", "0e+5", "0.0e5"] {
            Self.expectAgreement(InitiatePointInTimeRecoveryRequest.self, #"{"UserPoolId":"p","RestoreTimestamp":\#(value)}"#)
        }
        for attributes in ["[null]", "[1]", "{}", "\"x\"", "[{\"Name\":1}]", "[{}]", "[{\"Name\":\"a\"},null]",
                           "[{\"Name\":\"a\",\"Value\":[]}]"] {
            Self.expectAgreement(SignUpRequest.self, #"{"ClientId":"c","Username":"u","UserAttributes":\#(attributes)}"#)
        }
        for metadata in ["{\"x\":null}", "{\"x\":1}", "[]", "{\"x\":\"1\",\"x\":\"2\"}", "null", "{\"x\":{}}"] {
            Self.expectAgreement(SignUpRequest.self, #"{"ClientId":"c","Username":"u","ClientMetadata":\#(metadata)}"#)
        }
        for bytes in ["\"!!\"", "\"aGk\"", "1", "null"] {
            Self.expectAgreement(CreateManagedLoginBrandingRequest.self,
                                 #"{"UserPoolId":"p","ClientId":"c","Assets":[{"Category":"FORM_LOGO","ColorMode":"LIGHT","Extension":"PNG","Bytes":\#(bytes)}]}"#)
        }
    }

    /// The one difference on purpose: Foundation refuses some spellings of zero with an exponent
    /// as a floating-point number (`0e5`, `0E1`, `0.000e3`, while `0e+5` and `0.0e5` read),
    /// which RFC 8259 allows; the server reads them as 0.
    @Test func zeroWithAnExponentReadsAsZero() throws {
        for zero in ["0e5", "0E1", "0.000e3"] {
            let body = Data(#"{"UserPoolId":"p","RestoreTimestamp":\#(zero)}"#.utf8)
            let request = try WireJSONDecoder.decode(InitiatePointInTimeRecoveryRequest.self, from: body, report: nil)
            #expect(request.restoreTimestamp == Date(timeIntervalSince1970: 0))
        }
    }

    /// Member types no request shape has yet, in a shape of the test's own.
    struct Probe: WireShape {
        var flags: [Bool]?
        var dates: [Date]?
        var blobs: [Data]?
        var links: [URL]?
        var numbers: [Int64]?
        static var wirePlaceholder: Probe { Probe() }
    }

    @Test func nullsAndMismatchesOfOtherTypesFailAsFoundationFails() {
        for member in ["flags", "dates", "blobs", "links", "numbers"] {
            for value in ["[null]", "[\"x\"]", "[1]", "[true]", "null", "{}", "[[]]", "[1.5]", "[9007199254740993]"] {
                Self.expectAgreement(Probe.self, #"{"\#(member)":\#(value)}"#)
            }
        }
    }

    @Test func nestingDeeperThanFiveHundredTwelveLevelsIsRefusedAsFoundationRefusesIt() {
        for depth in [510, 511, 512] {
            Self.expectAgreement(GetUserRequest.self,
                                 #"{"b":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}")
        }
        Self.expectAgreement(GetUserRequest.self,
                             #"{"b":"# + String(repeating: #"{"c":"#, count: 600) + "1" + String(repeating: "}", count: 601))
    }

    @Test func invalidUTF8IsRefusedAsFoundationRefusesIt() {
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0xC3, 0xA9]] {
            let body = Array(#"{"AccessToken":""#.utf8) + bad + Array(#""}"#.utf8)
            #expect(Self.disagreement(GetUserRequest.self, body) == nil)
        }
    }

    /// Mutated bodies (bytes changed, dropped, doubled, JSON tokens inserted) of several shapes.
    @Test func mutatedBodiesDecodeAsFoundationDecodesThem() {
        var random = SeededRandom(seed: 20261128)
        let tokens = ["null", "1", "-0.5e3", "1.5", "\"x\"", "[", "]", "{", "}", ",", ":", "true", "\\u00e9", "\\ud800",
                      "\"a\":", "[null]", "{\"x\":1}", "2147483648", "01", " ", "\\u\"", "\\u1\"", "\\"]
            .map { Array($0.utf8) }
        let seeds: [([UInt8]) -> String?] = [
            { Self.disagreement(SignUpRequest.self, $0) },
            { Self.disagreement(CreateUserPoolRequest.self, $0) },
            { Self.disagreement(UpdateUserPoolClientRequest.self, $0) },
            { Self.disagreement(InitiateAuthRequest.self, $0) },
            { Self.disagreement(CreateManagedLoginBrandingRequest.self, $0) },
        ]
        let bodies = [
            #"{"ClientId":"c","Username":"u","Password":"p","UserAttributes":[{"Name":"email","Value":"e@x.io"}],"ClientMetadata":{"k":"v"}}"#,
            #"{"PoolName":"p","Policies":{"PasswordPolicy":{"MinimumLength":8,"RequireNumbers":true}},"Schema":[{"Name":"n","Mutable":true}],"UserPoolTags":{"a":"b"}}"#,
            #"{"UserPoolId":"p","ClientId":"c","IdTokenValidity":5,"ExplicitAuthFlows":["ALLOW_USER_SRP_AUTH"],"TokenValidityUnits":{"IdToken":"hours"}}"#,
            #"{"AuthFlow":"USER_PASSWORD_AUTH","ClientId":"c","AuthParameters":{"USERNAME":"u","PASSWORD":"p"}}"#,
            #"{"UserPoolId":"p","ClientId":"c","Settings":{"a":[1,{"b":null}]},"Assets":[{"Category":"FORM_LOGO","ColorMode":"LIGHT","Extension":"PNG","Bytes":"aGk="}]}"#,
        ].map { Array($0.utf8) }
        var disagreements: [String] = []
        for round in 0..<4000 {
            let which = round % bodies.count
            var body = bodies[which]
            for _ in 0..<(1 + random.next(3)) {
                let at = random.next(body.count + 1)
                switch random.next(4) {
                case 0 where at < body.count: body[at] = UInt8(truncatingIfNeeded: random.next(256))
                case 1 where at < body.count: body.remove(at: at)
                case 2 where at < body.count: body.insert(body[at], at: at)
                default: body.insert(contentsOf: tokens[random.next(tokens.count)], at: at)
                }
            }
            if let disagreement = seeds[which](body) { disagreements.append(disagreement) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5).joined(separator: "\n"))")
    }

    /// Every user-pool shape reads itself (its generated `init(wire:)`) as its `init(from:)`
    /// reads it on the same decoder: arbitrary values of each, written as JSON, then mutated
    /// (the same value or the same error, exactly). Unmutated, they read as Foundation reads them.
    @Test func everyShapeReadsItselfAsItsInitFromDecoderReads() throws {
        var random = SeededRandom(seed: 1128)
        var disagreements: [String] = []
        var bodies = 0
        for type in CognitoAPI.shapeTypes {
            #expect(type is any WireReadable.Type, "\(type) does not read itself")
            for _ in 0..<6 {
                var body = try Self.arbitraryBody(of: type, random: &random)
                if let disagreement = Self.disagreement(type, body) { disagreements.append(disagreement) }
                for _ in 0..<8 {
                    Self.mutate(&body, random: &random)
                    bodies += 1
                    if let disagreement = Self.readerDisagreement(type, body) { disagreements.append(disagreement) }
                }
            }
        }
        #expect(bodies > 15_000)
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(3).joined(separator: "\n"))")
    }

    /// String maps and lists, read without a container, as `Dictionary` and `Array` read them
    /// through one, and as Foundation does: null, wrong kinds, repeated names (the first is
    /// read), names that are integers, a bad element.
    @Test func stringMapsAndListsReadAsTheStandardLibraryReadsThem() {
        let maps = [
            #"null"#, #"{}"#, #"{"a":"1","b":"2"}"#, #"{"a":"1","a":"2"}"#, #"{"a":7}"#, #"{"5":null}"#, #"{"5":"x","5":1}"#,
            #"{"a":"1","b":[],"a":"2"}"#, #"[]"#, #""s""#, #"7"#, #"{"a\u0000b":"\ud83d\ude00","":""}"#,
        ]
        let lists = [#"null"#, #"[]"#, #"["a","b","a"]"#, #"["a",null]"#, #"[7]"#, #"{}"#, #""s""#, #"[["a"]]"#]
        var bodies = maps.map { #"{"ClientId":"c","Username":"u","ClientMetadata":"# + $0 + "}" }
        bodies += lists.map { #"{"UserPoolId":"us-east-1_a","AttributesToGet":"# + $0 + "}" }
        for body in bodies {
            let bytes = Array(body.utf8)
            let disagreements = body.contains("ClientMetadata")
                ? [Self.readerDisagreement(SignUpRequest.self, bytes), Self.disagreement(SignUpRequest.self, bytes)]
                : [Self.readerDisagreement(ListUsersRequest.self, bytes), Self.disagreement(ListUsersRequest.self, bytes)]
            #expect(disagreements.compactMap { $0 }.isEmpty, "\(disagreements.compactMap { $0 })")
        }
    }

    /// Strings scanned eight bytes at a time: quotes, backslashes, escapes, raw control bytes,
    /// DEL and multi-byte characters at every offset of long strings read as Foundation reads
    /// them.
    @Test func longStringsReadAsFoundationReadsThem() {
        var random = SeededRandom(seed: 2811)
        let pieces: [[UInt8]] = ["a", "Z", "~", " ", "\\\"", "\\\\", "\\n", "\\u0041", "\\u00e9", "é", "😀", "\u{7F}", "\t", "\u{1}", "\"", "\\"]
            .map { Array($0.utf8) }
        var disagreements: [String] = []
        for _ in 0..<3_000 {
            var text: [UInt8] = Array(repeating: UInt8(ascii: "x"), count: random.next(20))
            for _ in 0..<random.next(4) { text.insert(contentsOf: pieces[random.next(pieces.count)], at: random.next(text.count + 1)) }
            text += Array(repeating: UInt8(ascii: "y"), count: random.next(20))
            let body = Array(#"{"AccessToken":""#.utf8) + text + Array(#""}"#.utf8)
            if let disagreement = Self.disagreement(GetUserRequest.self, body) { disagreements.append(disagreement) }
            if let disagreement = Self.readerDisagreement(GetUserRequest.self, body) { disagreements.append(disagreement) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(3).joined(separator: "\n"))")
    }

    /// The generated reader against `init(from:)`, both on the server's decoder; nil where they agree.
    static func readerDisagreement<Shape: WireShape>(_ type: Shape.Type, _ body: [UInt8]) -> String? {
        let data = Data(body)
        let read = outcome { report in try WireJSONDecoder.decode(type, from: data, report: report) }
        let decoded = outcome { report in
            try WireJSONDecoder.decode(type, from: data, report: report, throughInitFromDecoder: true)
        }
        if read == decoded { return nil }
        if case .decoded(let one, let oneFailed) = read, case .decoded(let other, let otherFailed) = decoded, one == other,
            oneFailed.sorted() == otherFailed.sorted()
        {
            return nil  // a map's failures in the order of its dictionary, which two of them need not share
        }
        return "\(type) \(String(decoding: body, as: UTF8.self).debugDescription):\n read \(read)\n init(from:) \(decoded)"
    }

    static func arbitraryBody<Shape: WireShape>(of type: Shape.Type, random: inout SeededRandom) throws -> [UInt8] {
        let decoder = ArbitraryValueDecoder(generator: random)
        let value = try Shape(from: decoder)
        random = decoder.generator
        return Array(try WireJSONEncoder.encode(value))
    }

    /// Puts a member of another kind of value before one of the body's members, under the same
    /// name (the first of two is read), or drops a byte.
    static func mutate(_ body: inout [UInt8], random: inout SeededRandom) {
        let replacements = ["null", "7", "2147483648", "1.5", "\"s\"", "[]", "{}", "true", "[1]", "{\"a\":1}"].map { Array($0.utf8) }
        guard !body.isEmpty else { return }
        let at = random.next(body.count)
        let quote = UInt8(ascii: "\"")
        if random.next(4) > 0, let colon = body[at...].firstIndex(of: UInt8(ascii: ":")), colon > 1, body[colon - 1] == quote,
            let nameStart = body[..<(colon - 1)].lastIndex(of: quote)
        {
            let member = Array(body[nameStart...colon]) + replacements[random.next(replacements.count)] + [UInt8(ascii: ",")]
            body.insert(contentsOf: member, at: nameStart)
        } else {
            body.remove(at: at)
        }
    }
}

/// A reproducible generator (splitmix64), so a failing mutation can be found again.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    mutating func next(_ bound: Int) -> Int {
        Int(next() % UInt64(max(bound, 1)))
    }
}
