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
            try await database.withStore { try await FunctionBindings.put(arn: arn, url: url, in: $0) }
            print("\(arn) -> \(url)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List bindings: ARN, URL, last change.")
        @OptionGroup var database: DatabaseOption
        @Flag(help: "One JSON object per line.") var json = false

        func run() async throws {
            let bindings = try await database.withStore { store in try await store.read { try await $0.allFunctions() } }
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
            guard try await database.withStore({ try await FunctionBindings.delete(arn: arn, in: $0) }) else {
                throw ValidationError("No function is bound to \(arn).")
            }
            print("deleted \(arn)")
        }
    }

    struct Secret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a function's signing key (with an ARN), or the database's own secret keys derive from.",
            discussion: """
                With an ARN: the key that function's webhook verifies calls with (64 hex digits), \
                derived from the server's secret as `serve` finds it (COGNATE_WEBHOOK_SECRET, \
                --webhook-secret-file or the configuration file, else the database's); give each \
                function its own. Without: the database's secret, which signs when no \
                COGNATE_WEBHOOK_SECRET is set (docs/triggers.md).
                """)
        @OptionGroup var database: DatabaseOption
        @Argument(help: "The function ARN, as in the pool's LambdaConfig.") var arn: String?
        @Option(help: "File holding the webhook signing secret (env COGNATE_WEBHOOK_SECRET holds it directly).")
        var webhookSecretFile: String?

        func run() async throws {
            let configured = try Setting.secret(file: webhookSecretFile, "COGNATE_WEBHOOK_SECRET").flatMap { $0.isEmpty ? nil : $0 }
            guard let arn else {
                print(try await database.withStore { try await FunctionBindings.signingSecret(in: $0) })
                return
            }
            var secret = configured ?? ""
            if configured == nil {
                secret = try await database.withStore { try await FunctionBindings.signingSecret(in: $0) }
            }
            print(WebhookKeys.hex(WebhookKeys.function(arn, secret: secret)))
        }
    }
}
