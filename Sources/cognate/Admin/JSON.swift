import CognateProtocol
import Foundation

/// Reading and printing the JSON documents of Cognito operations.
extension JSONValue {
    /// The member `key` of an object; nil for a missing member or a non-object.
    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var array: [JSONValue] {
        if case .array(let values) = self { return values }
        return []
    }

    var int: Int? {
        if case .number(let value) = self, let whole = Int(exactly: value.rounded()) { return whole }
        return nil
    }

    /// The value as one table cell: strings as they are, whole numbers without a fraction,
    /// lists joined with commas, objects as compact JSON.
    var cell: String {
        switch self {
        case .null: return ""
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return Int(exactly: value).map(String.init) ?? String(value)
        case .string(let value): return value
        case .array(let values): return values.map(\.cell).joined(separator: ",")
        case .object: return compactJSON
        }
    }

    /// A Cognito timestamp (epoch seconds) as ISO 8601 in UTC; other values as ``cell``.
    var date: String {
        guard case .number(let seconds) = self else { return cell }
        return ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: seconds))
    }

    /// The `Attributes` / `UserAttributes` list of a user as a dictionary.
    var attributeMap: [String: String] {
        var map: [String: String] = [:]
        for attribute in (self["Attributes"] ?? self["UserAttributes"])?.array ?? [] {
            if let name = attribute["Name"]?.string { map[name] = attribute["Value"]?.string ?? "" }
        }
        return map
    }

    /// One line, keys sorted (JSON lines).
    var compactJSON: String { Self.render(self, pretty: false) }
    /// Indented, keys sorted (`--output json`).
    var prettyJSON: String { Self.render(self, pretty: true) }

    private static func render(_ value: JSONValue, pretty: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
