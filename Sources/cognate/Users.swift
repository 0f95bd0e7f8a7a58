import ArgumentParser
import CognateCore
import CognateStorage
import Foundation

struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Work on a pool's users: through the running server (list … import), or in the database (synthesize).",
        subcommands: [
            List.self, Get.self, Create.self, Delete.self, Disable.self, Enable.self, SetPassword.self, Export.self, Import.self,
            Synthesize.self,
        ])

    struct Synthesize: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add many confirmed users for load tests (synthetic-<n>@example.com, no usable password), in the database.",
            discussion: """
                Users are written straight into the database, a thousand per transaction, without the \
                cryptography of a real sign-up: they cannot sign in. Use it to measure how the server \
                behaves with a large pool (bench/run.py --users 1000000).
                """)

        @OptionGroup var database: DatabaseOption
        @Option(help: "The pool to add users to.") var pool: String
        @Option(help: "How many users to add.") var count: Int
        @Option(help: "Number of the first user (names are synthetic-<n>).") var first = 0

        func run() async throws {
            guard count > 0 else { throw ValidationError("--count must be positive.") }
            try await database.withStore { store in
                guard try await store.read({ try await $0.pool(id: pool) }) != nil else {
                    throw ValidationError("There is no pool \(pool).")
                }
                let started = Date()
                let batch = 1000
                for start in stride(from: first, to: first + count, by: batch) {
                    let range = start..<min(start + batch, first + count)
                    try await store.write { [pool] transaction in
                        let now = Date()
                        for index in range {
                            let name = "synthetic-\(index)"
                            try await transaction.insertUser(UserRecord(
                                poolId: pool, sub: UUID().uuidString.lowercased(), username: name, usernameKey: name,
                                status: .confirmed, enabled: true, createdAt: now, updatedAt: now, password: nil,
                                passwordUpdatedAt: nil,
                                attributes: ["email": "\(name)@example.com", "email_verified": "true"]))
                        }
                    }
                    if range.upperBound % 100_000 == 0 || range.upperBound == first + count {
                        let rate = Double(range.upperBound - first) / max(Date().timeIntervalSince(started), 0.001)
                        print("\(range.upperBound - first) users (\(Int(rate))/s)")
                    }
                }
            }
        }
    }
}
