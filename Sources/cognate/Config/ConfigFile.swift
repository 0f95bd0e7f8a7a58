import ArgumentParser
import Foundation
import Yams

/// A YAML configuration file, flattened to the environment variables its keys stand for.
///
/// Contract: nested keys join with `_` (`smtp: {host: x}` and `smtp_host: x` are the same
/// setting, `COGNATE_SMTP_HOST`); lists become comma-separated values; every key must name a
/// setting of `SettingCatalog` (or `<secret>_file`), and a secret's own value is refused so that
/// secrets never sit in a file that gets copied around. Loading reports every problem at once.
struct ConfigFile: Sendable {
    let path: String
    /// Value by environment variable name.
    let values: [String: String]

    static func load(_ path: String) throws -> ConfigFile {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw StartupFailure("Cannot read the configuration file \(path).")
        }
        let document: Any?
        do {
            document = try Yams.load(yaml: text)
        } catch {
            throw StartupFailure("\(path) is not valid YAML: \(error)")
        }
        guard let root = document.map({ $0 as? [String: Any] }) ?? [:] else {
            throw StartupFailure("\(path) must hold a mapping of settings at its top level.")
        }
        var values: [String: String] = [:]
        var problems: [String] = []
        flatten(root, prefix: [], into: &values, problems: &problems)
        for (variable, _) in values.sorted(by: { $0.key < $1.key }) {
            if let setting = SettingCatalog.byVariable[variable] {
                if setting.secret {
                    problems.append("\(setting.path) is a secret: put it in a file and name that file with "
                        + "\(setting.path)_file, or give it in \(setting.variable).")
                }
            } else if !SettingCatalog.all.contains(where: { $0.secret && $0.fileVariable == variable }) {
                problems.append("Unknown setting \(key(of: variable)) (\(variable)); `cognate config keys` lists them.")
            }
        }
        guard problems.isEmpty else { throw StartupFailure("In \(path): " + problems.joined(separator: "\n")) }
        return ConfigFile(path: path, values: values)
    }

    private static func key(of variable: String) -> String {
        String(variable.dropFirst("COGNATE_".count)).lowercased()
    }

    private static func flatten(_ node: [String: Any], prefix: [String], into values: inout [String: String],
                                problems: inout [String]) {
        for (name, value) in node {
            let path = prefix + [name]
            let variable = SettingCatalog.variable(for: path.joined(separator: "_"))
            switch value {
            case let nested as [String: Any]:
                flatten(nested, prefix: path, into: &values, problems: &problems)
            case let list as [Any]:
                values[variable] = list.map { "\($0)" }.joined(separator: ",")
            case is NSNull:
                continue
            default:
                if values[variable] != nil {
                    problems.append("\(path.joined(separator: ".")) is given twice.")
                }
                values[variable] = scalarText(value)
            }
        }
    }

    private static func scalarText(_ value: Any) -> String {
        switch value {
        case let flag as Bool: return flag ? "true" : "false"
        case let number as Double where number == number.rounded() && abs(number) < 1e15: return String(Int(number))
        default: return "\(value)"
        }
    }
}
