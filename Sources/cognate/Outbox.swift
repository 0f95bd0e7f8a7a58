import ArgumentParser
import CognateStorage
import Foundation
import Logging

struct Outbox: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the messages the server sent (dev mode outbox), oldest first, from the database.")

    @OptionGroup var database: DatabaseOption

    @Option(name: .long, help: "Only messages of this user pool.")
    var pool: String?

    @Option(name: .long, help: "Show at most this many of the newest messages.")
    var last: Int = 20

    @Flag(name: .long, help: "Print JSON lines instead of text.")
    var json = false

    func run() async throws {
        let pool = self.pool
        let all = try await database.withStore(migrating: false) { store in
            try await store.read { try await $0.outboxMessages(poolId: pool, afterId: nil, limit: Int.max / 2) }
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        for message in all.suffix(max(last, 0)) {
            if json {
                print(String(decoding: try encoder.encode(message), as: UTF8.self))
            } else {
                let sent = message.message
                let subject = sent.subject.map { " \"\($0)\"" } ?? ""
                print("#\(message.id) \(message.createdAt) \(sent.medium) to \(sent.destination) "
                    + "[\(sent.poolId) \(sent.purpose)]\(subject): \(sent.body)")
            }
        }
    }
}
