import ArgumentParser

@main
struct Cognate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cognate",
        abstract: "A self-hostable user registration and sign-in service that speaks Amazon Cognito's API.",
        subcommands: [Serve.self, Config.self, Outbox.self, Migrate.self, Keys.self, Functions.self, Users.self, CryptoCostCommand.self],
        defaultSubcommand: Serve.self)
}
