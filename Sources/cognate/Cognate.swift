import ArgumentParser

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
}
