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
            abstract: "Add a signing key: published at once, it signs after the activation delay (60 s by default); "
                + "the previous key stays published until its tokens have expired.")

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let store = try await SQLStore.open(database.resolved, options: try database.options(), logger: Logger(label: "cognate"))
            do {
                let kid = try await SigningKeyRing.rotate(in: store, now: Date())
                print("New signing key \(kid): servers publish it within their key refresh interval (30 s by default) "
                    + "and sign with it after the activation delay (60 s by default).")
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }
}
