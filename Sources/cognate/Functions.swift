import ArgumentParser
import CognateCore
import CognateStorage
import Foundation

struct Functions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bind the Lambda ARNs of pools' LambdaConfig to webhooks that serve them, in the database (no Cognito operation).",
        discussion: """
            A pool's triggers name functions by ARN, as in Cognito; Cognate calls the webhook bound to \
            that ARN with the same event Lambda would receive (docs/triggers.md). A running server \
            sees a change within a second.
            """,
        subcommands: [Put.self, List.self, Delete.self, Secret.self])

    struct Put: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bind an ARN to a webhook URL (replacing an earlier binding).")
        @OptionGroup var database: DatabaseOption
        @Argument(help: "The function ARN, as in the pool's LambdaConfig.") var arn: String
        @Argument(help: "The webhook's http:// or https:// URL.") var url: String

        func run() async throws {
            try await Keys.withStore(database) { try await FunctionBindings.put(arn: arn, url: url, in: $0) }
            print("\(arn) -> \(url)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List bindings: ARN, URL, last change.")
        @OptionGroup var database: DatabaseOption
        @Flag(help: "One JSON object per line.") var json = false

        func run() async throws {
            let bindings = try await Keys.withStore(database) { store in try await store.read { try await $0.allFunctions() } }
            let formatter = ISO8601DateFormatter()
            let rows = bindings.map { [$0.arn, $0.url, formatter.string(from: $0.updatedAt)] }
            if json {
                for row in rows { try printJSONLine(["arn": row[0], "url": row[1], "updated": row[2]]) }
            } else {
                print(Table(["ARN", "URL", "UPDATED"], rows).rendered, terminator: "")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a binding (a pool that still names the ARN then gets UnexpectedLambdaException).")
        @OptionGroup var database: DatabaseOption
        @Argument(help: "The function ARN.") var arn: String

        func run() async throws {
            guard try await Keys.withStore(database, { try await FunctionBindings.delete(arn: arn, in: $0) }) else {
                throw ValidationError("No function is bound to \(arn).")
            }
            print("deleted \(arn)")
        }
    }

    struct Secret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the secret function webhooks are signed with when COGNATE_WEBHOOK_SECRET is not set.")
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            print(try await Keys.withStore(database) { try await FunctionBindings.signingSecret(in: $0) })
        }
    }
}
