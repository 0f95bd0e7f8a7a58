import ArgumentParser
import CognateProtocol

/// `cognate groups … --pool P`: a pool's groups and their members through the running server's admin API.
struct Groups: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, create and delete a pool's groups and manage their members (through the running server, signed with SigV4).",
        subcommands: [List.self, Create.self, Delete.self, AddUser.self, RemoveUser.self, Members.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a pool's groups (ListGroups).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String

        func run() async throws {
            let groups = try await connection.withClient { try await $0.all("ListGroups", ["UserPoolId": .string(pool), "Limit": .number(60)], items: "Groups") }
            output.print(.object(["Groups": .array(groups)]), ids: groups.map { $0["GroupName"]?.string }) { _ in
                Table(["NAME", "PRECEDENCE", "DESCRIPTION"], groups.map {
                    [$0["GroupName"]?.cell ?? "", $0["Precedence"]?.cell ?? "", $0["Description"]?.cell ?? ""]
                })
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a group (CreateGroup).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String
        @Argument(help: "The group's name.") var name: String
        @Option(help: "A description.") var description: String?
        @Option(help: "Precedence (lower wins when a user is in several groups with roles).") var precedence: Int?

        func run() async throws {
            var input: [String: JSONValue] = ["UserPoolId": .string(pool), "GroupName": .string(name)]
            if let description { input["Description"] = .string(description) }
            if let precedence { input["Precedence"] = .number(Double(precedence)) }
            let result = try await connection.withClient { try await $0.call("CreateGroup", input) }
            output.print(result, ids: [name]) { document in
                let group = document["Group"] ?? .object([:])
                return Table(["NAME", "PRECEDENCE", "DESCRIPTION"],
                             [[group["GroupName"]?.cell ?? name, group["Precedence"]?.cell ?? "", group["Description"]?.cell ?? ""]])
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a group; its members stay in the pool (DeleteGroup).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String
        @Argument(help: "The group's name.") var name: String

        func run() async throws {
            let result = try await connection.withClient { try await $0.call("DeleteGroup", ["UserPoolId": .string(pool), "GroupName": .string(name)]) }
            output.print(result, ids: [name]) { _ in Table(["DELETED"], [[name]]) }
        }
    }

    struct AddUser: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a user to a group (AdminAddUserToGroup).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String
        @Argument(help: "The group's name.") var group: String
        @Argument(help: "The user's name.") var username: String

        func run() async throws {
            let result = try await connection.withClient { try await $0.call(
                "AdminAddUserToGroup", ["UserPoolId": .string(pool), "GroupName": .string(group), "Username": .string(username)]) }
            output.print(result, ids: [username]) { _ in Table(["GROUP", "ADDED"], [[group, username]]) }
        }
    }

    struct RemoveUser: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a user from a group (AdminRemoveUserFromGroup).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String
        @Argument(help: "The group's name.") var group: String
        @Argument(help: "The user's name.") var username: String

        func run() async throws {
            let result = try await connection.withClient { try await $0.call(
                "AdminRemoveUserFromGroup", ["UserPoolId": .string(pool), "GroupName": .string(group), "Username": .string(username)]) }
            output.print(result, ids: [username]) { _ in Table(["GROUP", "REMOVED"], [[group, username]]) }
        }
    }

    struct Members: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a group's users (ListUsersInGroup).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String
        @Argument(help: "The group's name.") var group: String

        func run() async throws {
            let users = try await connection.withClient { try await $0.all(
                "ListUsersInGroup", ["UserPoolId": .string(pool), "GroupName": .string(group), "Limit": .number(60)], items: "Users") }
            output.print(.object(["Users": .array(users)]), ids: users.map { $0["Username"]?.string }) { _ in UserTable.list(users) }
        }
    }
}
