import ArgumentParser
import Foundation
import Yams

/// A YAML configuration file, flattened to the environment variables its keys stand for.
///
/// Contract: nested keys join with `_` (`smtp: {host: x}` and `smtp_host: x` are the same
/// setting, `COGNATE_SMTP_HOST`); lists become comma-separated values; every key must name a
/// setting of `SettingCatalog` (or `<secret>_file`), and a secret's own value is refused so that
/// secrets never sit in a file that gets copied around. Loading reports every problem at once,
/// each as `FILE:LINE: …` naming the key as the file writes it (nested keys joined with dots),
/// with the nearest known key for one that is unknown. Each value keeps its key and line, so
/// that a later error about the value names them too (``Setting/origin(of:flag:)``).
struct ConfigFile: Sendable {
    let path: String
    /// Value by environment variable name.
    let values: [String: String]
    /// Where each value is written, by environment variable name.
    let keys: [String: Key]

    /// A key as the file writes it, and its line.
    struct Key: Sendable {
        let name: String
        let line: Int?

        /// `port in cognate.yaml:3`.
        func described(in path: String) -> String {
            "\(name) in \(path)" + (line.map { ":\($0)" } ?? "")
        }
    }

    static func load(_ path: String) throws -> ConfigFile {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw StartupFailure("Cannot read the configuration file \(path).")
        }
        let document: Node?
        do {
            document = try Yams.compose(yaml: text)
        } catch {
            throw StartupFailure("\(path) is not valid YAML: \(error)")
        }
        guard let root = document.map({ $0.mapping }) ?? Node.Mapping([]) else {
            throw StartupFailure("\(path) must hold a mapping of settings at its top level.")
        }
        var file = Flattened(path: path)
        file.add(root, prefix: [])
        var problems = file.problems
        for (variable, key) in file.keys.sorted(by: { ($0.value.line ?? 0, $0.key) < ($1.value.line ?? 0, $1.key) }) {
            let at = place(path, key.line)
            if let setting = SettingCatalog.byVariable[variable] {
                if setting.secret {
                    problems.append(at + "\(key.name) is a secret: put it in a file and name that file with "
                        + "\(setting.path)_file, or give it in \(setting.variable).")
                }
            } else if !SettingCatalog.all.contains(where: { $0.secret && $0.fileVariable == variable }) {
                problems.append(at + "unknown setting \(key.name)"
                    + Suggestion.didYouMean(key.name, among: SettingCatalog.fileKeys)
                    + " (`cognate config keys` lists them).")
            }
        }
        guard problems.isEmpty else { throw StartupFailure(problems.joined(separator: "\n")) }
        return ConfigFile(path: path, values: file.values, keys: file.keys)
    }

    /// `FILE:LINE: `, the start of a problem's line.
    private static func place(_ path: String, _ line: Int?) -> String {
        "\(path):" + (line.map { "\($0): " } ?? " ")
    }

    /// The file's settings as environment variables, with where each is written.
    private struct Flattened {
        let path: String
        var values: [String: String] = [:]
        var keys: [String: Key] = [:]
        var problems: [String] = []

        mutating func add(_ mapping: Node.Mapping, prefix: [String]) {
            for (name, value) in mapping {
                let names = prefix + [name.string ?? "\(name.any)"]
                let key = Key(name: names.joined(separator: "."), line: name.mark?.line)
                let variable = SettingCatalog.variable(for: names.joined(separator: "_"))
                if let nested = value.mapping {
                    add(nested, prefix: names)
                    continue
                }
                if value.null != nil && value.scalar != nil { continue }
                if let earlier = keys[variable] {
                    problems.append(ConfigFile.place(path, key.line) + "\(key.name) is given twice (also as \(earlier.name)"
                        + (earlier.line.map { ", line \($0)" } ?? "") + ").")
                }
                keys[variable] = key
                if let list = value.sequence {
                    values[variable] = list.map { ConfigFile.scalarText($0.any) }.joined(separator: ",")
                } else {
                    values[variable] = ConfigFile.scalarText(value.any)
                }
            }
        }
    }

    static func scalarText(_ value: Any) -> String {
        switch value {
        case let flag as Bool: return flag ? "true" : "false"
        case let number as Double where number == number.rounded() && abs(number) < 1e15: return String(Int(number))
        default: return "\(value)"
        }
    }
}
