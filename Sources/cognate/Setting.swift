import ArgumentParser
import Foundation

/// Reads one setting the way every command does: the flag if given, else the environment
/// variable, else nil (the caller's default).
enum Setting {
    static let environment = ProcessInfo.processInfo.environment

    static func string(_ flag: String?, _ variable: String) -> String? {
        flag ?? environment[variable]
    }

    /// A number, refused when not a number or below `minimum`.
    static func number<Value: LosslessStringConvertible & Comparable>(
        _ flag: Value?, _ variable: String, minimum: Value
    ) throws -> Value? {
        guard let value = try flag ?? environment[variable].map({ text in
            guard let value = Value(text) else { throw ValidationError("\(variable) must be a number: \(text)") }
            return value
        }) else { return nil }
        guard value >= minimum else { throw ValidationError("\(variable) must be at least \(minimum), not \(value).") }
        return value
    }

    /// A secret: the content of `file` (trailing newline dropped) if given, else the
    /// environment variable — never a command-line value, which other users can see.
    static func secret(file: String?, _ variable: String) throws -> String? {
        guard let file else { return environment[variable] }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw ValidationError("Cannot read the secret file \(file).")
        }
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
