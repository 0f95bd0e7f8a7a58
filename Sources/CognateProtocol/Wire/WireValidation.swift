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
    let basePath: String

    public init(_ decoder: any Decoder) {
        self.report = decoder.userInfo[.wireValidation] as? WireValidationReport
        self.basePath = report == nil ? "" : Self.path(of: decoder.codingPath)
    }

    /// The AWS-style path of a member: `userAttributes.1.member.name`.
    public func path(_ member: String) -> String {
        guard report != nil else { return "" }
        return basePath.isEmpty ? member : basePath + "." + member
    }

    /// A required member is absent (or null): recorded while validating, thrown otherwise.
    public func missing<Key: CodingKey>(
        _ key: Key, in container: KeyedDecodingContainer<Key>, path: @autoclosure () -> String
    ) throws {
        guard let report else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: container.codingPath, debugDescription: "Required member is missing."))
        }
        report.add("Value null at '\(path())' failed to satisfy constraint: Member must not be null")
    }

    public func checkString(
        _ value: String, at path: String, min: Int? = nil, max: Int? = nil, pattern: WirePattern? = nil,
        sensitive: Bool
    ) {
        guard let report else { return }
        let length = value.unicodeScalars.count
        let subject = sensitive ? "Value at '\(path)'" : "Value '\(value)' at '\(path)'"
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

    public func checkNumber(_ value: Int, at path: String, min: Int? = nil, max: Int? = nil) {
        guard let report else { return }
        if let max, value > max {
            report.add("Value '\(value)' at '\(path)' failed to satisfy constraint: Member must have value less than or equal to \(max)")
        }
        if let min, value < min {
            report.add("Value '\(value)' at '\(path)' failed to satisfy constraint: Member must have value greater than or equal to \(min)")
        }
    }

    public func checkCount<Value>(_ count: Int, of value: Value, at path: String, min: Int? = nil, max: Int? = nil) {
        guard let report else { return }
        if let max, count > max {
            report.add("Value at '\(path)' failed to satisfy constraint: Member must have length less than or equal to \(max)")
        }
        if let min, count < min {
            report.add("Value at '\(path)' failed to satisfy constraint: Member must have length greater than or equal to \(min)")
        }
    }

    public func checkEnum<E: WireEnum>(_ value: E, at path: String) {
        guard let report, !value.isKnown else { return }
        let set = E.allValues.map(\.rawValue).joined(separator: ", ")
        report.add("Value '\(value.rawValue)' at '\(path)' failed to satisfy constraint: Member must satisfy enum value set: [\(set)]")
    }

    static func path(of codingPath: [any CodingKey]) -> String {
        codingPath.map { key in
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
public final class WirePattern: @unchecked Sendable {
    /// The pattern as the model writes it (quoted in error messages).
    public let source: String
    private let regex: NSRegularExpression  // immutable after init; safe to share

    init(_ source: String, icu: String) {
        self.source = source
        self.regex = try! NSRegularExpression(pattern: "^(?:" + icu + ")$", options: [])
    }

    public func matches(_ value: String) -> Bool {
        let range = NSRange(value.startIndex..<value.endIndex, in: value)
        return regex.firstMatch(in: value, options: [], range: range) != nil
    }
}
