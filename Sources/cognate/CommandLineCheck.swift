import ArgumentParser
import Foundation

/// The command-line mistakes ArgumentParser words poorly, named plainly: an unknown command
/// (`cognate pool list` would otherwise reach `serve`, the default command, as two unexpected
/// arguments) and an unknown option (which ArgumentParser reports after a missing one, or
/// with the nearest option by any distance: `--pool` on `keys list` as "did you mean --json").
///
/// Contract: ``mistake(in:)`` looks only at the command words and at the `--name` options
/// before a `--`; it answers one line saying what is unknown, the nearest known word when one
/// is near (``Suggestion``), and the words that are known there; nil when it finds neither
/// mistake (ArgumentParser's own message stands).
enum CommandLineCheck {
    /// A command as ArgumentParser describes it (`--experimental-dump-help`'s JSON).
    struct Command: Decodable {
        var commandName: String
        var defaultSubcommand: String?
        var subcommands: [Command]?
        var arguments: [Argument]?

        struct Argument: Decodable {
            var kind: String
            var shouldDisplay: Bool?
            var names: [Name]?
        }

        struct Name: Decodable {
            var kind: String
            var name: String

            var spelled: String { kind == "short" ? "-" + name : "--" + name }
        }

        /// The options and flags it takes, as typed (`--pool`); the hidden ones only with `hidden`.
        func options(hidden: Bool) -> [String] {
            (arguments ?? []).filter { $0.kind != "positional" && (hidden || $0.shouldDisplay != false) }
                .flatMap { ($0.names ?? []).filter { $0.kind == "long" }.map(\.spelled) }
        }
    }

    private struct Dump: Decodable { var command: Command }

    static let root: Command? = try? JSONDecoder().decode(Dump.self, from: Data(Cognate._dumpHelp().utf8)).command

    /// The mistake in `arguments` (without the program name), as the line to print after "Error: ".
    static func mistake(in arguments: [String]) -> (message: String, command: String)? {
        guard let root else { return nil }
        var command = root
        var path = ["cognate"]
        var rest = arguments[...]
        while let subcommands = command.subcommands, !subcommands.isEmpty, let word = rest.first {
            if word.hasPrefix("-") {
                guard let fallback = command.defaultSubcommand, let chosen = subcommands.first(where: { $0.commandName == fallback })
                else { break }
                command = chosen
                path.append(fallback)
                break
            }
            if word == "help" { return nil }
            guard let chosen = subcommands.first(where: { $0.commandName == word }) else {
                let names = subcommands.map(\.commandName)
                let place = path.count == 1 ? "" : " of '\(path.joined(separator: " "))'"
                return (unknown("command '\(word)'\(place)", word, among: names)
                    + " The commands\(place): \(names.joined(separator: ", ")).", path.joined(separator: " "))
            }
            command = chosen
            path.append(word)
            rest = rest.dropFirst()
        }
        let known = Set(command.options(hidden: true) + ["--help", "-h"])
        for word in rest {
            if word == "--" { break }
            guard word.hasPrefix("--"), word.count > 2 else { continue }
            let name = String(word.prefix { $0 != "=" })
            if known.contains(name) { continue }
            let shown = command.options(hidden: false)
            let place = path.joined(separator: " ")
            return (unknown("option '\(name)' for '\(place)'", name, among: shown)
                + " Its options: \(shown.joined(separator: ", ")).", place)
        }
        return nil
    }

    /// "Unknown <what>; did you mean '<nearest>'?", or "Unknown <what>." when none is near.
    private static func unknown(_ what: String, _ typed: String, among known: [String]) -> String {
        let hint = Suggestion.didYouMean(typed, among: known)
        return "Unknown \(what)" + (hint.isEmpty ? "." : hint)
    }
}
