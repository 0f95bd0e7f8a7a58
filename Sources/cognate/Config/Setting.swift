import ArgumentParser
import Foundation
import Synchronization

/// Reads one setting the way every command does: the flag if given, else the environment
/// variable, else the configuration file (`--config` or COGNATE_CONFIG), else nil (the
/// caller's default). `SettingCatalog` names every setting and its file key.
enum Setting {
    static let environment = ProcessInfo.processInfo.environment

    /// The configuration file's values, loaded once per process by `DatabaseOption.validate()`
    /// before any command runs.
    private static let file = Mutex<ConfigFile?>(nil)

    static func useConfigFile(_ path: String?) throws {
        guard let path = path ?? environment["COGNATE_CONFIG"] else { return }
        let loaded = try ConfigFile.load(path)
        file.withLock { $0 = loaded }
    }

    static var configFile: ConfigFile? { file.withLock { $0 } }

    /// Where a setting's value comes from, for `cognate config check`.
    enum Source: String { case flag, environment, file }

    static func lookup(_ variable: String) -> (value: String, source: Source)? {
        if let value = environment[variable] { return (value, .environment) }
        if let value = configFile?.values[variable] { return (value, .file) }
        return nil
    }

    static func string(_ flag: String?, _ variable: String) -> String? {
        flag ?? lookup(variable)?.value
    }

    /// A yes/no setting: the flag when set, else `1`/`true`/`yes` in the environment or file.
    static func isOn(_ flag: Bool, _ variable: String) -> Bool {
        flag || ["1", "true", "yes"].contains(lookup(variable)?.value.lowercased() ?? "")
    }

    /// A number, refused when not a number or below `minimum`.
    static func number<Value: LosslessStringConvertible & Comparable>(
        _ flag: Value?, _ variable: String, minimum: Value
    ) throws -> Value? {
        guard let value = try flag ?? lookup(variable).map({ text in
            guard let value = Value(text.value) else { throw ValidationError("\(variable) must be a number: \(text.value)") }
            return value
        }) else { return nil }
        guard value >= minimum else { throw ValidationError("\(variable) must be at least \(minimum), not \(value).") }
        return value
    }

    /// A secret: the content of a file (trailing newline dropped) named by the flag, else by
    /// `<variable>_FILE` in the environment or the configuration file, else the environment
    /// variable itself — never a command-line value, which other users can see. A file that
    /// its group or others may read or write (after symbolic links) is refused, as libpq
    /// refuses such a password file: the secret would not be the owner's alone.
    static func secret(file flag: String?, _ variable: String) throws -> String? {
        guard let path = flag ?? lookup(variable + "_FILE")?.value else { return environment[variable] }
        var status = stat()
        guard stat(path, &status) == 0, let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("Cannot read the secret file \(path).")
        }
        guard status.st_mode & 0o077 == 0 else {
            let mode = String(Int(status.st_mode & 0o777), radix: 8)
            throw ValidationError("The secret file \(path) may be read by others than its owner (mode \(mode)): chmod 600 it.")
        }
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
