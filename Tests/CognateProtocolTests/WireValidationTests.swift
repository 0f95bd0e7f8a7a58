import Foundation
import Testing

@testable import CognateProtocol

/// Generated shapes decode strictly for the server (collecting every failure, worded as AWS
/// words them) and leniently for the SDK.
struct WireValidationTests {
    func decodeStrictly<T: WireShape>(_ type: T.Type, _ json: String) throws -> (T, String?) {
        let report = WireValidationReport()
        let value = try WireCoding.makeDecoder(validating: report).decode(type, from: Data(json.utf8))
        return (value, report.message)
    }

    @Test func reportsEveryMissingRequiredMember() throws {
        let (_, message) = try decodeStrictly(SignUpRequest.self, "{}")
        #expect(message == "2 validation errors detected: "
            + "Value null at 'clientId' failed to satisfy constraint: Member must not be null; "
            + "Value null at 'username' failed to satisfy constraint: Member must not be null")
    }

    @Test func checksLengthsPatternsAndEnums() throws {
        let long = String(repeating: "a", count: 129)
        let (_, message) = try decodeStrictly(
            InitiateAuthRequest.self, #"{"AuthFlow":"NOPE","ClientId":"c l","AuthParameters":{}}"#)
        #expect(message?.contains("Value 'NOPE' at 'authFlow' failed to satisfy constraint: Member must satisfy enum value set: [USER_SRP_AUTH") == true)
        #expect(message?.contains("Value at 'clientId' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+]+") == true)
        let (_, second) = try decodeStrictly(SignUpRequest.self, #"{"ClientId":"abc","Username":"\#(long)"}"#)
        #expect(second == "1 validation error detected: Value at 'username' failed to satisfy constraint: Member must have length less than or equal to 128")
    }

    @Test func namesNestedMembersByPath() throws {
        let json = #"{"ClientId":"abc","Username":"u","UserAttributes":[{"Name":"email","Value":"x"},{"Value":"y"}]}"#
        let (_, message) = try decodeStrictly(SignUpRequest.self, json)
        #expect(message == "1 validation error detected: Value null at 'userAttributes.2.member.name' failed to satisfy constraint: Member must not be null")
    }

    /// Paths are worded only when a check fails (autoclosures): an element's member, a list's
    /// string element, both decoders.
    @Test func wordsTheFailingNestedPath() throws {
        let attribute = #"{"ClientId":"abc","Username":"u","UserAttributes":[{"Name":"email","Value":"x"},{"Name":"","Value":"y"}]}"#
        let client = #"{"UserPoolId":"us-east-1_abc","ClientName":"c","CallbackURLs":["https://a.example",""]}"#
        let name = "'userAttributes.2.member.name'"
        let expectedAttribute = "2 validation errors detected: Value '' at \(name) failed to satisfy constraint: "
            + "Member must have length greater than or equal to 1; Value '' at \(name) failed to satisfy constraint: "
            + #"Member must satisfy regular expression pattern: [\p{L}\p{M}\p{S}\p{N}\p{P}\t\n\r ]+"#
        #expect(try decodeStrictly(SignUpRequest.self, attribute).1 == expectedAttribute)
        let serverReport = WireValidationReport()
        _ = try WireJSONDecoder.decode(SignUpRequest.self, from: Data(attribute.utf8), report: serverReport)
        #expect(serverReport.message == expectedAttribute)
        let clientMessage = try decodeStrictly(CreateUserPoolClientRequest.self, client).1
        #expect(clientMessage?.contains("at 'callbackURLs.2.member' failed to satisfy constraint: Member must have length greater than or equal to 1") == true)
        let clientReport = WireValidationReport()
        _ = try WireJSONDecoder.decode(CreateUserPoolClientRequest.self, from: Data(client.utf8), report: clientReport)
        #expect(clientReport.message == clientMessage)
    }

    @Test func javaWordClassIsASCII() throws {
        let (_, message) = try decodeStrictly(SignUpRequest.self, #"{"ClientId":"clïent","Username":"u"}"#)
        #expect(message?.contains("'clientId'") == true)
    }

    @Test func leniencyForResponses() throws {
        // Unknown enum values and constraint violations pass; a missing required member throws.
        let response = try WireCoding.makeDecoder().decode(
            InitiateAuthResponse.self, from: Data(#"{"ChallengeName":"SOMETHING_NEW"}"#.utf8))
        #expect(response.challengeName?.rawValue == "SOMETHING_NEW")
        #expect(throws: DecodingError.self) {
            try WireCoding.makeDecoder().decode(SignUpResponse.self, from: Data(#"{"UserConfirmed":true}"#.utf8))
        }
    }

    @Test func encodesTimestampsAsEpochSecondsAndOmitsNil() throws {
        let user = UserType(username: "u", userCreateDate: Date(timeIntervalSince1970: 1_548_108_509.5), enabled: true)
        let json = String(decoding: try WireCoding.makeEncoder().encode(user), as: UTF8.self)
        #expect(json.contains("\"UserCreateDate\":1548108509.5"))
        #expect(!json.contains("Attributes"))
    }

    @Test func errorBodyNamesAreSanitized() throws {
        let body = try JSONDecoder().decode(
            WireErrorBody.self, from: Data(#"{"__type":"aws.cognito#NotAuthorizedException:http://x","Message":"m"}"#.utf8))
        #expect(body.shapeName == "NotAuthorizedException")
        #expect(body.message == "m")
    }

    @Test func secretHashMatchesDocumentedExample() {
        #expect(SecretHash.compute(username: "testuser", clientId: "1example23456789", clientSecret: "secret123")
            == "wPmNjnLks+YFTH+fuj4S595f9oOAVP9HeK/5VER2QvM=")
    }
}

/// The byte-table fast path of character-class patterns answers exactly as the regex does.
struct WirePatternFastPathTests {
    static let classPatterns = [
        "[A-Za-z0-9_+]+", "[A-Za-z0-9_+-]+", "[A-Za-z0-9-_=.]+", "[A-Za-z0-9]+", "[A-Za-z0-9_+=/]+",
        "[A-Za-z0-9_\\s+=.@-]+", "[\\x21\\x23-\\x5B\\x5D-\\x7E]+", "[A-Za-z0-9_\\s+=,.@-]+", "^[0-9a-fA-F]+$",
        "^[A-Za-z0-9_\\- ]+$", "[\\S]+", "[\\p{L}\\p{M}\\p{S}\\p{N}\\p{P}]+", "[\\p{L}\\p{M}\\p{S}\\p{N}\\p{P}\\t\\n\\r ]+",
        "[\\p{L}\\p{M}\\p{S}\\p{N}\\p{P}\\p{Z}]+", "^[\\p{L}\\p{M}\\p{S}\\p{N}\\p{P}]+$", "[\\p{L}\\p{M}\\p{S}\\p{N}\\p{P}\\s*]+",
        "[^\\s]+", "[\\w\\[\\]]+",
    ]

    @Test func agreesWithTheRegexOnRandomASCII() {
        var generator = SystemRandomNumberGenerator()
        for icu in Self.classPatterns {
            let pattern = WirePattern(icu, icu: icu)
            for _ in 0..<2000 {
                let length = Int.random(in: 0...6, using: &generator)
                let value = String(decoding: (0..<length).map { _ in UInt8.random(in: 0...127, using: &generator) }, as: UTF8.self)
                #expect(pattern.matches(value) == pattern.regexMatches(value), "\(icu) on \(value.debugDescription)")
            }
            for value in ["é", "aé", "a\u{2003}b", "😀", "a b😀", "😀a b", "ab\u{7F}é"] {
                #expect(pattern.matches(value) == pattern.regexMatches(value), "\(icu) on \(value)")
            }
        }
    }

    @Test func countsUnicodeScalarsAsTheStringDoes() {
        for value in ["", "abc", "é", "e\u{301}", "😀", "a😀b\u{2003}", "中文字符", "\u{10FFFF}x", String(repeating: "ü", count: 300)] {
            #expect(WireValidator.scalarCount(value) == value.unicodeScalars.count, "\(value.debugDescription)")
        }
    }

    @Test func buildsTablesForClassPatternsOnly() {
        #expect(WirePattern.asciiClass(of: "[A-Za-z0-9-_=.]+") != nil)
        #expect(WirePattern.asciiClass(of: "[\\p{L}\\p{M}]+") != nil)
        #expect(WirePattern.asciiClass(of: "[^\\s]+") != nil)
        #expect(WirePattern.asciiClass(of: "[^_\\p{Z}][a]+") == nil)
        #expect(WirePattern.asciiClass(of: "[[a-z]&&[^q]]+") == nil)
        #expect(WirePattern.asciiClass(of: "[a-z]+[0-9]+") == nil)
        #expect(WirePattern.asciiClass(of: "arn:[A-Za-z]+") == nil)
    }
}
