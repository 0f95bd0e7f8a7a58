import ArgumentParser
import CognateProtocol
import Foundation

/// `cognate users list|get|create|delete|disable|enable|set-password --pool P`: one pool's users
/// through the running server's admin API (the Admin* operations, signed with SigV4).
extension Users {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a pool's users (ListUsers), all pages.")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String
        @Option(help: "A ListUsers filter, e.g. 'email ^= \"ada\"'.") var filter: String?

        func run() async throws {
            var input: [String: JSONValue] = ["UserPoolId": .string(pool), "Limit": .number(60)]
            if let filter { input["Filter"] = .string(filter) }
            let users = try await connection.withClient { try await $0.all("ListUsers", input, items: "Users", token: "PaginationToken") }
            output.print(.object(["Users": .array(users)]), ids: users.map { $0["Username"]?.string }) { _ in UserTable.list(users) }
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a user and their attributes (AdminGetUser).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String
        @Argument(help: "The user's name (or an alias the pool signs in with).") var username: String

        func run() async throws {
            let result = try await connection.withClient { try await $0.call("AdminGetUser", ["UserPoolId": .string(pool), "Username": .string(username)]) }
            output.print(result, ids: [result["Username"]?.string]) { UserTable.one($0) }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a user (AdminCreateUser): FORCE_CHANGE_PASSWORD with a temporary password the server generates and sends, unless --suppress-message.")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String
        @Argument(help: "The user's name.") var username: String
        @Option(name: .customLong("attribute"), parsing: .singleValue, help: "An attribute as name=value, repeatable.")
        var attributes: [String] = []
        @Flag(help: "Send no invitation (MessageAction SUPPRESS).") var suppressMessage = false

        func run() async throws {
            var input: [String: JSONValue] = ["UserPoolId": .string(pool), "Username": .string(username)]
            input["UserAttributes"] = .array(try attributes.map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty else { throw ValidationError("--attribute takes name=value, not \(pair).") }
                return .object(["Name": .string(parts[0]), "Value": .string(parts[1])])
            })
            if suppressMessage { input["MessageAction"] = .string("SUPPRESS") }
            let result = try await connection.withClient { try await $0.call("AdminCreateUser", input) }
            output.print(result, ids: [result["User"]?["Username"]?.string]) { UserTable.one($0["User"] ?? .object([:])) }
        }
    }

    /// The commands that name one user and answer nothing: delete, disable, enable.
    struct UserAction {
        static func run(_ operation: String, _ connection: AdminConnection, _ output: OutputOption, pool: String,
                        username: String, done: String) async throws {
            let result = try await connection.withClient { try await $0.call(operation, ["UserPoolId": .string(pool), "Username": .string(username)]) }
            output.print(result, ids: [username]) { _ in Table(["USERNAME", "RESULT"], [[username, done]]) }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a user (AdminDeleteUser).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String
        @Argument(help: "The user's name.") var username: String

        func run() async throws {
            try await UserAction.run("AdminDeleteUser", connection, output, pool: pool, username: username, done: "deleted")
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Disable a user: no sign-in, tokens stop working (AdminDisableUser).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String
        @Argument(help: "The user's name.") var username: String

        func run() async throws {
            try await UserAction.run("AdminDisableUser", connection, output, pool: pool, username: username, done: "disabled")
        }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enable a disabled user (AdminEnableUser).")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String
        @Argument(help: "The user's name.") var username: String

        func run() async throws {
            try await UserAction.run("AdminEnableUser", connection, output, pool: pool, username: username, done: "enabled")
        }
    }

    struct SetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a user's password (AdminSetUserPassword); the password is read from a file or the environment, never the command line.")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: OutputOption
        @Option(help: "The pool id.") var pool: String
        @Argument(help: "The user's name.") var username: String
        @Option(help: "A file holding the password, - for standard input (env COGNATE_USER_PASSWORD_FILE names one; env COGNATE_USER_PASSWORD holds it directly).")
        var passwordFile: String?
        @Flag(help: "A permanent password (CONFIRMED); without it the user must change it at the next sign-in (FORCE_CHANGE_PASSWORD).")
        var permanent = false

        func run() async throws {
            let password: String?
            if passwordFile == "-" {
                password = readLine(strippingNewline: true)
            } else {
                password = try Setting.secret(file: passwordFile, "COGNATE_USER_PASSWORD", flag: "--password-file")
            }
            guard let password, !password.isEmpty else {
                throw ValidationError("Give the password in --password-file or COGNATE_USER_PASSWORD.")
            }
            let result = try await connection.withClient { try await $0.call("AdminSetUserPassword", [
                "UserPoolId": .string(pool), "Username": .string(username), "Password": .string(password),
                "Permanent": .bool(permanent),
            ]) }
            output.print(result, ids: [username]) { _ in
                Table(["USERNAME", "RESULT"], [[username, permanent ? "password set" : "temporary password set"]])
            }
        }
    }
}
