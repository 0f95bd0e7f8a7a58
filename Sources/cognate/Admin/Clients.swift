import ArgumentParser
import CognateProtocol

/// `cognate clients … --pool P`: a pool's app clients through the running server's admin API.
struct Clients: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, describe, create and delete a pool's app clients (through the running server, signed with SigV4).",
        subcommands: [List.self, Describe.self, Create.self, Delete.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a pool's app clients (ListUserPoolClients).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String

        func run() async throws {
            let clients = try await connection.withClient { try await $0.all(
                "ListUserPoolClients", ["UserPoolId": .string(pool), "MaxResults": .number(60)], items: "UserPoolClients") }
            output.print(.object(["UserPoolClients": .array(clients)]), ids: clients.map { $0["ClientId"]?.string }) { _ in
                Table(["CLIENT ID", "NAME"], clients.map { [$0["ClientId"]?.cell ?? "", $0["ClientName"]?.cell ?? ""] })
            }
        }
    }

    struct Describe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show an app client's settings (DescribeUserPoolClient).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String
        @Argument(help: "The client id.") var clientId: String

        func run() async throws {
            let result = try await connection.withClient { try await $0.call(
                "DescribeUserPoolClient", ["UserPoolId": .string(pool), "ClientId": .string(clientId)]) }
            output.print(result, ids: [clientId]) { document in Clients.fields(document["UserPoolClient"] ?? .object([:])) }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an app client (CreateUserPoolClient); `--output id` prints only its id (the secret, if generated: `clients describe`).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String
        @Argument(help: "The client's name.") var name: String
        @Flag(help: "Give the client a secret (server-side apps).") var generateSecret = false
        @Option(help: "Explicit auth flows, comma-separated (e.g. ALLOW_USER_SRP_AUTH,ALLOW_REFRESH_TOKEN_AUTH).")
        var authFlows: String?

        func run() async throws {
            var input: [String: JSONValue] = ["UserPoolId": .string(pool), "ClientName": .string(name)]
            if generateSecret { input["GenerateSecret"] = .bool(true) }
            if let authFlows { input["ExplicitAuthFlows"] = list(authFlows) }
            let result = try await connection.withClient { try await $0.call("CreateUserPoolClient", input) }
            output.print(result, ids: [result["UserPoolClient"]?["ClientId"]?.string]) { document in
                Clients.fields(document["UserPoolClient"] ?? .object([:]))
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an app client (DeleteUserPoolClient).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String
        @Argument(help: "The client id.") var clientId: String

        func run() async throws {
            let result = try await connection.withClient { try await $0.call(
                "DeleteUserPoolClient", ["UserPoolId": .string(pool), "ClientId": .string(clientId)]) }
            output.print(result, ids: [clientId]) { _ in Table(["DELETED"], [[clientId]]) }
        }
    }

    static func fields(_ client: JSONValue) -> Table {
        .fields([
            ("ClientId", client["ClientId"]?.cell ?? ""), ("ClientName", client["ClientName"]?.cell ?? ""),
            ("ClientSecret", client["ClientSecret"]?.cell ?? ""), ("ExplicitAuthFlows", client["ExplicitAuthFlows"]?.cell ?? ""),
            ("AllowedOAuthFlows", client["AllowedOAuthFlows"]?.cell ?? ""), ("CallbackURLs", client["CallbackURLs"]?.cell ?? ""),
            ("Created", client["CreationDate"]?.date ?? ""),
        ])
    }
}
