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
}
