import ArgumentParser
import CognateServer
import Foundation

struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the server's configuration, or list the settings it takes.",
        subcommands: [Check.self, Keys.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Resolve flags, environment and configuration file as `serve` would; print every setting's value and where it came from, and report every problem.",
            discussion: "Exit status 0 when `serve` would accept the configuration, 1 otherwise. Secrets are never printed.")

        @OptionGroup var options: ServerOptions
        @Flag(help: "Print one JSON object instead of a table.") var json = false

        func run() throws {
            var rows: [[String: String]] = []
            for setting in SettingCatalog.all {
                let (value, source) = Self.describe(setting)
                rows.append(["key": setting.path, "variable": setting.variable, "value": value, "source": source])
            }
            var problems: [String] = []
            do {
                _ = try options.configuration()
            } catch {
                problems += "\(error)".split(separator: "\n").map(String.init)   // one refusal per line
            }
            if json {
                let document: [String: Any] = [
                    "file": Setting.configFile?.path ?? NSNull(), "settings": rows, "problems": problems, "ok": problems.isEmpty,
                ]
                let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .prettyPrinted])
                print(String(decoding: data, as: UTF8.self))
            } else {
                print("Configuration file: \(Setting.configFile?.path ?? "none (--config or COGNATE_CONFIG names one)")")
                print(Table(["KEY", "VALUE", "FROM"], rows.map { row in
                    [row["key"]!, row["value"]!.isEmpty ? "(not set)" : row["value"]!, row["source"]!]
                }).rendered, terminator: "")
                print(problems.isEmpty ? "OK" : problems.map { "Problem: \($0)" }.joined(separator: "\n"))
            }
            if !problems.isEmpty { throw ExitCode.failure }
        }

        /// A setting's effective value and where it came from (flag, environment, file, or
        /// default with the default value); secrets show only that they are set, a database URL
        /// its password as `***`.
        static func describe(_ setting: SettingDescription) -> (String, String) {
            let flag = Setting.flagName(for: setting.variable)
            if setting.secret {
                if let file = flagValue(flag + "-file") { return ("(secret from file \(file))", "flag") }
                if flagValue(flag) != nil { return ("(secret)", "flag") }
                if let file = Setting.lookup(setting.fileVariable) { return ("(secret from file \(file.value))", file.source.rawValue) }
                if Setting.environment[setting.variable] != nil { return ("(secret)", "environment") }
                return ("", "default")   // secrets have no default
            }
            if let value = flagValue(flag) { return (setting.shown(value), "flag") }
            guard let found = Setting.lookup(setting.variable) else { return (setting.byDefault ?? "", "default") }
            return (setting.shown(found.value), found.source.rawValue)
        }

        /// The value this command line gives `flag` (`--name value` or `--name=value`; "true"
        /// for a flag given without a value); the flags of `config check` are `serve`'s, each
        /// named after its setting's variable (`--db-pool-size` for `COGNATE_DB_POOL_SIZE`).
        static func flagValue(_ flag: String, arguments: [String] = CommandLine.arguments) -> String? {
            var found: String?
            for (index, argument) in arguments.enumerated() {
                if argument.hasPrefix(flag + "=") {
                    found = String(argument.dropFirst(flag.count + 1))
                } else if argument == flag {
                    let next = arguments.indices.contains(index + 1) ? arguments[index + 1] : nil
                    found = next.flatMap { $0.hasPrefix("--") ? nil : $0 } ?? "true"
                }
            }
            return found
        }
    }

    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every configuration key with its environment variable (Markdown table).")

        func run() {
            print("| key | environment variable | meaning |")
            print("| --- | --- | --- |")
            for setting in SettingCatalog.all {
                let file = setting.secret ? " (secret: `\(setting.path)_file` in the file, or `\(setting.fileVariable)`)" : ""
                print("| `\(setting.path)` | `\(setting.variable)` | \(setting.summary)\(file) |")
            }
        }
    }
}
