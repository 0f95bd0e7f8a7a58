import CognateProtocol
import Foundation
import Testing

struct JSONValueBytesTests {
    @Test func writesCompactSortedJSONThatParsersReadBack() throws {
        let value = JSONValue.object([
            "sub": "a\"b\\c\n\u{1}é😀", "exp": .number(1_795_000_000), "ratio": .number(0.25), "ok": .bool(true),
            "none": .null, "groups": .array(["a", "b"]), "nested": .object(["z": .number(1), "a": .number(2)]),
        ])
        let text = String(decoding: value.jsonBytes, as: UTF8.self)
        #expect(text == #"{"exp":1795000000,"groups":["a","b"],"nested":{"a":2,"z":1},"none":null,"ok":true,"ratio":0.25,"sub":"a\"b\\c\n\u0001é😀"}"#)
        let parsed = try JSONDecoder().decode(JSONValue.self, from: Data(value.jsonBytes))
        #expect(parsed == value)
    }

    /// Strings with escapes anywhere (first, last, only, in a row) read back as they were.
    @Test func escapesWhereverTheyFall() throws {
        #expect(String(decoding: JSONValue.string("").jsonBytes, as: UTF8.self) == #""""#)
        #expect(String(decoding: JSONValue.string("\"\u{1F}\u{7F}/").jsonBytes, as: UTF8.self) == "\"\\\"\\u001f\u{7F}/\"")
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "é", "😀", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "/", " "]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let value = JSONValue.object([text: .string(text), "k": .array([.string(text)])])
            #expect(try JSONDecoder().decode(JSONValue.self, from: Data(value.jsonBytes)) == value, "\(text.debugDescription)")
        }
    }
}
