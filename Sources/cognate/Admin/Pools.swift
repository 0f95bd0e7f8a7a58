import ArgumentParser
import CognateProtocol

/// `cognate pools …`: user pools through the running server's admin API.
struct Pools: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, describe, create and delete user pools (through the running server, signed with SigV4).",
        subcommands: [List.self, Describe.self, Create.self, Delete.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every user pool (ListUserPools).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption

        func run() async throws {
            let pools = try await connection.withClient { try await $0.all("ListUserPools", ["MaxResults": .number(60)], items: "UserPools") }
            output.print(.object(["UserPools": .array(pools)]), ids: pools.map { $0["Id"]?.string }) { _ in
                Table(["ID", "NAME", "CREATED"], pools.map { [$0["Id"]?.cell ?? "", $0["Name"]?.cell ?? "", $0["CreationDate"]?.date ?? ""] })
            }
        }
    }

    struct Describe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a user pool's settings (DescribeUserPool).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Argument(help: "The pool id.") var poolId: String

        func run() async throws {
            let result = try await connection.withClient { try await $0.call("DescribeUserPool", ["UserPoolId": .string(poolId)]) }
            output.print(result, ids: [result["UserPool"]?["Id"]?.string]) { document in
                let pool = document["UserPool"] ?? .object([:])
                return .fields([
                    ("Id", pool["Id"]?.cell ?? ""), ("Name", pool["Name"]?.cell ?? ""), ("Arn", pool["Arn"]?.cell ?? ""),
                    ("Created", pool["CreationDate"]?.date ?? ""), ("Users", pool["EstimatedNumberOfUsers"]?.cell ?? ""),
                    ("UsernameAttributes", pool["UsernameAttributes"]?.cell ?? ""),
                    ("AliasAttributes", pool["AliasAttributes"]?.cell ?? ""),
                    ("AutoVerifiedAttributes", pool["AutoVerifiedAttributes"]?.cell ?? ""),
                    ("MfaConfiguration", pool["MfaConfiguration"]?.cell ?? ""),
                    ("DeletionProtection", pool["DeletionProtection"]?.cell ?? ""),
                ])
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a user pool (CreateUserPool); `--output id` prints only its id. Other settings with the AWS CLI or an SDK (UpdateUserPool).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Argument(help: "The pool's name.") var name: String
        @Option(help: "Sign in with these instead of a user name, comma-separated: email, phone_number.")
        var usernameAttributes: String?
        @Option(help: "Attributes verified by a code at sign-up, comma-separated: email, phone_number.")
        var autoVerify: String?

        func run() async throws {
            var input: [String: JSONValue] = ["PoolName": .string(name)]
            if let usernameAttributes { input["UsernameAttributes"] = list(usernameAttributes) }
            if let autoVerify { input["AutoVerifiedAttributes"] = list(autoVerify) }
            let result = try await connection.withClient { try await $0.call("CreateUserPool", input) }
            output.print(result, ids: [result["UserPool"]?["Id"]?.string]) { document in
                Table(["ID", "NAME", "ARN"], [[document["UserPool"]?["Id"]?.cell ?? "", name, document["UserPool"]?["Arn"]?.cell ?? ""]])
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a user pool and all its users (DeleteUserPool).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Argument(help: "The pool id.") var poolId: String

        func run() async throws {
            let result = try await connection.withClient { try await $0.call("DeleteUserPool", ["UserPoolId": .string(poolId)]) }
            output.print(result, ids: [poolId]) { _ in Table(["DELETED"], [[poolId]]) }
        }
    }
}

/// A comma-separated option as a JSON list of strings (spaces around items dropped).
func list(_ text: String) -> JSONValue {
    .array(text.split(separator: ",").map { .string($0.trimmingCharacters(in: .whitespaces)) }.filter { $0 != .string("") })
}
