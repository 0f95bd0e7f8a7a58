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

    /// How a message names the setting `variable` where its value came from: the command line
    /// (`--port`, or `flagName`; `flag` is what the command line gave, nil for nothing), the
    /// environment variable, or the configuration file's key as written, with its line (`port in
    /// /etc/cognate.yaml:3`); nil when nothing set it and its default applies.
    static func origin(of variable: String, flag: Any?, flagName: String? = nil) -> String? {
        if flag != nil { return flagName ?? Self.flagName(for: variable) }
        if environment[variable] != nil { return variable }
        if let file = configFile, let key = file.keys[variable] { return key.described(in: file.path) }
        return nil
    }

    /// The flag of the setting `variable`: `--` and the variable without `COGNATE_`, in lower
    /// case with dashes (`--db-pool-size` for `COGNATE_DB_POOL_SIZE`); every `serve` flag is so named.
    static func flagName(for variable: String) -> String {
        "--" + variable.dropFirst("COGNATE_".count).lowercased().replacingOccurrences(of: "_", with: "-")
    }

    static func string(_ flag: String?, _ variable: String) -> String? {
        flag ?? lookup(variable)?.value
    }

    /// A yes/no setting: the flag when set, else `1`/`true`/`yes` in the environment or file.
    static func isOn(_ flag: Bool, _ variable: String) -> Bool {
        flag || ["1", "true", "yes"].contains(lookup(variable)?.value.lowercased() ?? "")
    }

    /// A number, refused when not a number or below `minimum`; the refusal names the setting
    /// where it was given (``origin(of:flag:flagName:)``).
    static func number<Value: LosslessStringConvertible & Comparable>(
        _ flag: Value?, _ variable: String, minimum: Value, flag flagName: String? = nil
    ) throws -> Value? {
        let name = { origin(of: variable, flag: flag, flagName: flagName) ?? variable }
        guard let value = try flag ?? lookup(variable).map({ text in
            guard let value = Value(text.value) else { throw ValidationError("\(name()) must be a number, not \(text.value).") }
            return value
        }) else { return nil }
        guard value >= minimum else { throw ValidationError("\(name()) must be at least \(minimum), not \(value).") }
        return value
    }

    /// A secret: the content of a file (trailing newline dropped) named by the flag, else by
    /// `<variable>_FILE` in the environment or the configuration file, else the environment
    /// variable itself — never a command-line value, which other users can see. A file that
    /// its group or others may read or write (after symbolic links) is refused, as libpq
    /// refuses such a password file: the secret would not be the owner's alone.
    static func secret(file flag: String?, _ variable: String, flag flagName: String? = nil) throws -> String? {
        guard let path = flag ?? lookup(variable + "_FILE")?.value else { return environment[variable] }
        let named = origin(of: variable + "_FILE", flag: flag, flagName: flagName).map { ", named by \($0)," } ?? ""
        var status = stat()
        guard stat(path, &status) == 0, let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("Cannot read the secret file \(path)\(named.dropLast()).")
        }
        guard status.st_mode & 0o077 == 0 else {
            let mode = String(Int(status.st_mode & 0o777), radix: 8)
            throw ValidationError("The secret file \(path)\(named) may be read by others than its owner (mode \(mode)): chmod 600 it.")
        }
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
