import Foundation

extension CodingUserInfoKey {
    /// Key of the ``WireValidationReport`` that switches generated shapes to strict decoding.
    public static let wireValidation = CodingUserInfoKey(rawValue: "cognate.wireValidation")!
}

/// Collects the validation failures of one request body, in member order.
public final class WireValidationReport: @unchecked Sendable {
    // Only touched by the one decoder pass that owns this report.
    public private(set) var failures: [String] = []

    public init() {}

    func add(_ failure: String) { failures.append(failure) }

    /// Cognito's wording: "1 validation error detected: …" or "N validation errors detected: …; …".
    public var message: String? {
        guard !failures.isEmpty else { return nil }
        let count = failures.count == 1 ? "1 validation error" : "\(failures.count) validation errors"
        return "\(count) detected: " + failures.joined(separator: "; ")
    }
}

/// Used by generated `init(from:)` implementations to read members and check the model's
/// constraints. Without a report in the decoder (the SDK reading responses) checks are skipped
/// and a missing required member throws `DecodingError.keyNotFound`.
public struct WireValidator {
    let report: WireValidationReport?
    /// Where the shape being read is; worded into a path only for a failure.
    let codingPath: [any CodingKey]

    public init(_ decoder: any Decoder) {
        self.report = decoder.userInfo[.wireValidation] as? WireValidationReport
        self.codingPath = report == nil ? [] : decoder.codingPath
    }

    /// For generated `init(wire:)` readers: the decoder's report without a look-up.
    init(_ decoder: WireValueDecoder) {
        self.report = decoder.report
        self.codingPath = report == nil ? [] : decoder.codingPath
    }

    /// The AWS-style path of a member: `userAttributes.1.member.name`. The checks take their
    /// path as an autoclosure: it is worded only when a check fails.
    public func path(_ member: String) -> String {
        guard report != nil else { return "" }
        return codingPath.isEmpty ? member : Self.path(of: codingPath) + "." + member
    }

    /// A required member is absent (or null): recorded while validating, thrown otherwise.
    public func missing<Container: KeyedDecodingContainerProtocol>(
        _ key: Container.Key, in container: Container, path: @autoclosure () -> String
    ) throws {
        guard let report else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: container.codingPath, debugDescription: "Required member is missing."))
        }
        report.add("Value null at '\(path())' failed to satisfy constraint: Member must not be null")
    }

    public func checkString(
        _ value: String, at path: @autoclosure () -> String, min: Int? = nil, max: Int? = nil, pattern: WirePattern? = nil,
        sensitive: Bool
    ) {
        guard let report else { return }
        // Counted only for a bound (a token's pattern has none).
        let length = min == nil && max == nil ? 0 : Self.scalarCount(value)
        // Worded only for a failure: every string member of every request is checked.
        var subject: String { sensitive ? "Value at '\(path())'" : "Value '\(value)' at '\(path())'" }
        if let max, length > max {
            report.add("\(subject) failed to satisfy constraint: Member must have length less than or equal to \(max)")
        }
        if let min, length < min {
            report.add("\(subject) failed to satisfy constraint: Member must have length greater than or equal to \(min)")
        }
        if let pattern, !pattern.matches(value) {
            report.add("\(subject) failed to satisfy constraint: Member must satisfy regular expression pattern: \(pattern.source)")
        }
    }

    public func checkNumber(_ value: Int, at path: @autoclosure () -> String, min: Int? = nil, max: Int? = nil) {
        guard let report else { return }
        if let max, value > max {
            report.add("Value '\(value)' at '\(path())' failed to satisfy constraint: Member must have value less than or equal to \(max)")
        }
        if let min, value < min {
            report.add("Value '\(value)' at '\(path())' failed to satisfy constraint: Member must have value greater than or equal to \(min)")
        }
    }

    public func checkCount<Value>(_ count: Int, of value: Value, at path: @autoclosure () -> String, min: Int? = nil, max: Int? = nil) {
        guard let report else { return }
        if let max, count > max {
            report.add("Value at '\(path())' failed to satisfy constraint: Member must have length less than or equal to \(max)")
        }
        if let min, count < min {
            report.add("Value at '\(path())' failed to satisfy constraint: Member must have length greater than or equal to \(min)")
        }
    }

    public func checkEnum<E: WireEnum>(_ value: E, at path: @autoclosure () -> String) {
        guard let report, !value.isKnown else { return }
        let set = E.allValues.map(\.rawValue).joined(separator: ", ")
        report.add("Value '\(value.rawValue)' at '\(path())' failed to satisfy constraint: Member must satisfy enum value set: [\(set)]")
    }

    /// The number of Unicode scalars (what the model's lengths count), in one pass over the
    /// UTF-8 bytes: each scalar has exactly one byte that is not a continuation byte (10xxxxxx).
    static func scalarCount(_ value: String) -> Int {
        var value = value
        return value.withUTF8 { bytes in
            var continuations = 0
            for byte in bytes where byte & 0xC0 == 0x80 { continuations += 1 }
            return bytes.count - continuations
        }
    }

    static func path(of codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "" }
        return codingPath.map { key in
            if let index = key.intValue { return "\(index + 1).member" }
            return memberPathName(key.stringValue)
        }.joined(separator: ".")
    }

    /// `UserAttributes` → `userAttributes`, `SMSMfaSettings` → `smsMfaSettings` (as the generator names members).
    static func memberPathName(_ name: String) -> String {
        let scalars = Array(name)
        var upper = 0
        while upper < scalars.count, scalars[upper].isUppercase { upper += 1 }
        switch upper {
        case 0: return name
        case 1, scalars.count: return String(scalars[..<upper]).lowercased() + String(scalars[upper...])
        default: return String(scalars[..<(upper - 1)]).lowercased() + String(scalars[(upper - 1)...])
        }
    }
}

/// A member pattern of the model, matched against the whole value as Java's `matches()` does.
///
/// Most of the model's patterns are one character class repeated (`[A-Za-z0-9-_=.]+`,
/// `[\p{L}\p{M}\p{S}\p{N}\p{P}]+`); for those, an ASCII value is checked byte by byte against a
/// table built from the class, which gives the regular expression's answer at a fraction of its
/// cost. Other patterns, and values with non-ASCII characters, go to the regular expression.
public final class WirePattern: @unchecked Sendable {
    /// The pattern as the model writes it (quoted in error messages).
    public let source: String
    private let regex: NSRegularExpression  // immutable after init; safe to share
    /// For `[class]+` patterns: which ASCII bytes the class admits.
    private let asciiClass: [Bool]?

    public init(_ source: String, icu: String) {
        self.source = source
        // `\z`, not `$`: ICU's `$` also matches before a final line break, Java's matches() does not.
        self.regex = try! NSRegularExpression(pattern: "^(?:" + icu + ")\\z", options: [])
        self.asciiClass = Self.asciiClass(of: icu)
    }

    public func matches(_ value: String) -> Bool {
        if let asciiClass, let answer = Self.matches(value, asciiClass) { return answer }
        return regexMatches(value)
    }

    /// The answer of a `[class]+` pattern from its ASCII table, in one pass; nil when the value
    /// has a non-ASCII character before the first ASCII one outside the class (the regular
    /// expression decides those). An ASCII character outside the class fails the full match
    /// whatever follows it.
    private static func matches(_ value: String, _ asciiClass: [Bool]) -> Bool? {
        var value = value
        return value.withUTF8 { bytes -> Bool? in
            guard !bytes.isEmpty else { return false }
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if !asciiClass[Int(byte)] { return false }
            }
            return true
        }
    }

    /// The regular expression's answer alone.
    func regexMatches(_ value: String) -> Bool {
        let range = NSRange(value.startIndex..<value.endIndex, in: value)
        return regex.firstMatch(in: value, options: [], range: range) != nil
    }

    /// The table of a pattern that is one character class repeated, `[…]+` (optionally
    /// anchored `^[…]+$`, negated or not, with any escapes or properties ICU knows: `\S`,
    /// `\p{L}`): each ASCII character is asked of the class's own regular expression once, so
    /// the table gives the pattern's answer by construction. Nil for any other pattern.
    static func asciiClass(of pattern: String) -> [Bool]? {
        var body = Substring(pattern)
        if body.hasPrefix("^") && body.hasSuffix("$") { body = body.dropFirst().dropLast() }
        guard body.hasPrefix("["), body.hasSuffix("]+") else { return nil }
        let inner = body.dropFirst().dropLast(2)
        // One class: a bracket inside that is not escaped would nest a set or end the class.
        var escaped = false
        for character in inner.unicodeScalars {
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "[" || character == "]" {
                return nil
            }
        }
        guard !inner.isEmpty, !escaped,
            let single = try? NSRegularExpression(pattern: "^[" + inner + "]\\z", options: [])
        else { return nil }
        return (0..<128).map { byte in
            let character = String(UnicodeScalar(UInt8(byte)))
            return single.firstMatch(in: character, options: [], range: NSRange(location: 0, length: 1)) != nil
        }
    }
}
