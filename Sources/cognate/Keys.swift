import ArgumentParser
import CognateCore
import CognateStorage
import Foundation
import Logging

struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage token signing keys.", subcommands: [Rotate.self])

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a new signing key and retire the current one (it stays published until its tokens expire).")

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let store = try await SQLStore.open(database.resolved, options: try database.options(), logger: Logger(label: "cognate"))
            do {
                let kid = try await SigningKeyRing.rotate(in: store, now: Date())
                print("New signing key \(kid); running servers pick it up within 30 seconds.")
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }
}
