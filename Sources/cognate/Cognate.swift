import ArgumentParser
import Foundation

@main
struct Cognate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cognate",
        abstract: "A self-hostable user registration and sign-in service that speaks Amazon Cognito's API.",
        discussion: """
            pools, clients, users and groups call the Cognito API of a running server (--endpoint, \
            signed with SigV4 from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or --credentials-file), or \
            the database itself with --database when no server runs. \
            keys, functions, outbox, migrate and users synthesize work on the database (--database): \
            they have no Cognito operation.
            """,
        subcommands: [
            Serve.self, Config.self, Pools.self, Clients.self, Users.self, Groups.self, Keys.self, Functions.self, Outbox.self,
            Migrate.self, CryptoCostCommand.self,
        ],
        defaultSubcommand: Serve.self)

    /// Parses and runs the command. Mistakes in the command line are named by
    /// ``CommandLineCheck`` where it words them better than ArgumentParser; a `ValidationError`
    /// thrown while a command runs (a refused configuration) ends with that command's usage, not
    /// the top-level command's.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            if let mistake = CommandLineCheck.mistake(in: arguments) {
                FileHandle.standardError.write(Data(
                    "Error: \(mistake.message)\n  See '\(mistake.command) --help' for more information.\n".utf8))
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
            exit(withError: error)
        }
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let error as ValidationError {
            let usage = usageString(for: type(of: command))
            let name = usage.split(separator: " ").prefix { !$0.hasPrefix("[") && !$0.hasPrefix("<") && !$0.hasPrefix("-") }
                .joined(separator: " ")
            FileHandle.standardError.write(Data(
                "Error: \(error.message)\nUsage: \(usage)\n  See '\(name) --help' for more information.\n".utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}
