@testable import CognateStorage
import Foundation
import Testing

/// A user's attributes come from the database as one JSON object of strings; this reader must
/// agree with `JSONDecoder` on every such object and refuse what is not one.
struct JSONStringMapTests {
    static let valid: [String] = [
        "{}", " { } ", #"{"a":"b"}"#, #"{ "email" : "a@x.io", "email_verified" : "true" }"#,
        "{\n\t\"k\"\r:\"v\" ,\"k2\":\"\"}",
        #"{"quote\"key":"back\\slash","slash":"\/","controls":"\b\f\n\r\t\u0001\u001f"}"#,
        #"{"unicode":"ユーザー 🙂 é","escaped":"\u00e9\u30e6\ud83d\ude42","upper":"\u00C9\uD83D\uDE42"}"#,
        #"{"json":"{\"a\": [1, \"b\\\"], \"c\": null}","empty":""}"#,
    ]

    @Test(arguments: valid)
    func agreesWithJSONDecoder(_ text: String) throws {
        let expected = try JSONDecoder().decode([String: String].self, from: Data(text.utf8))
        #expect(try JSONStringMap.decode(text) == expected)
    }

    @Test func aRepeatedKeyKeepsItsLastValue() throws {
        #expect(try JSONStringMap.decode(#"{"k":"first","k":"last"}"#) == ["k": "last"])
    }

    @Test func longValuesWithAndWithoutEscapes() throws {
        let plain = String(repeating: "x", count: 10_000), mixed = String(repeating: "ab\\n", count: 3_000)
        let decoded = try JSONStringMap.decode("{\"plain\":\"\(plain)\",\"mixed\":\"\(mixed)\"}")
        #expect(decoded["plain"] == plain)
        #expect(decoded["mixed"] == String(repeating: "ab\n", count: 3_000))
    }

    static let malformed: [String] = [
        "", " ", "{", "}", "[]", "null", #"{"a"}"#, #"{"a":}"#, #"{"a":1}"#, #"{"a":null}"#, #"{"a":["b"]}"#,
        #"{"a":"b",}"#, #"{"a":"b""c":"d"}"#, #"{"a":"b"} x"#, #"{"a":"b"}{}"#, #"{a:"b"}"#, #"{"a":"b"#,
        #"{"a":"\x"}"#, #"{"a":"\u12"}"#, #"{"a":"\u12g4"}"#, #"{"a":"\ud83d"}"#, #"{"a":"\ude42"}"#,
        #"{"a":"\ud83d\u0041"}"#, "{\"a\":\"line\nbreak\"}", "{\"a\":\"tab\there\"}", #"{"a":"b"\"#,
    ]

    @Test(arguments: malformed)
    func refusesWhatIsNotAnObjectOfStrings(_ text: String) {
        #expect(throws: JSONStringMap.Malformed.self) { try JSONStringMap.decode(text) }
    }
}
