import ArgumentParser
import CognateCore
import CognateStorage
import Foundation

struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage token signing keys (each user pool has its own), in the database: Cognito has no operation for them.", subcommands: [List.self, Rotate.self, Retire.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List signing keys: pool, kid, state, dates.")

        @OptionGroup var database: DatabaseOption
        @Flag(help: "One JSON object per line.") var json = false

        func run() async throws {
            let keys = try await database.withStore { store in try await store.read { try await $0.allSigningKeys() } }
            let now = Date()
            let formatter = ISO8601DateFormatter()
            var rows: [[String]] = []
            for key in keys {
                let state = key.retiredAt != nil ? "retired" : key.expiresAt.map { $0 <= now ? "expired" : "superseded" }
                    ?? (key.activatesAt <= now ? "signing" : "published")
                let row = [
                    key.poolId ?? "*", key.kid, state, formatter.string(from: key.createdAt), formatter.string(from: key.activatesAt),
                    key.expiresAt.map(formatter.string(from:)) ?? "",
                ]
                if json {
                    try printJSONLine(["pool": row[0], "kid": row[1], "state": row[2], "created": row[3], "activates": row[4], "expires": row[5]])
                }
                rows.append(row)
            }
            if !json { print(Table(["POOL", "KID", "STATE", "CREATED", "ACTIVATES", "EXPIRES"], rows).rendered, terminator: "") }
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a signing key to a pool (or to every pool): published at once, it signs after the activation "
                + "delay (60 s by default); the keys it replaces stay published until their tokens have expired.")

        static let defaultActivationSeconds: Double = 60

        @OptionGroup var database: DatabaseOption
        @Option(help: "The pool to rotate (default: every pool).") var pool: String?
        @Option(help: "Seconds the new key is published before it signs: long enough for JWKS caches to fetch it (env COGNATE_KEY_ACTIVATION_SECONDS; default 60).")
        var activationSeconds: Double?

        func run() async throws {
            try await database.withStore { store in
                var pools: [String] = []
                if let pool { pools = [pool] } else {
                    var after: String?
                    repeat {
                        let page = try await store.read { [after] in try await $0.listPools(after: after, limit: 500) }
                        pools += page.items.map(\.id)
                        after = page.next
                    } while after != nil
                }
                let delay = try Setting.number(activationSeconds, "COGNATE_KEY_ACTIVATION_SECONDS", minimum: 0, flag: "--activation-seconds")
                    ?? Self.defaultActivationSeconds
                for pool in pools {
                    let key = try await SigningKeyRing.rotate(poolId: pool, in: store, now: Date(), activationDelay: delay)
                    print("\(pool): new signing key \(key.kid), signing from \(ISO8601DateFormatter().string(from: key.activatesAt)).")
                }
            }
        }
    }

    struct Retire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop publishing and accepting a signing key at once (a leaked key); its pool signs with a new key "
                + "from now on. Tokens it signed stop verifying: their users sign in again or refresh.")

        @OptionGroup var database: DatabaseOption
        /// Kids are base64url, so one in 64 begins with `-`: the argument takes it as it is (with or
        /// without a `--` before it) instead of reading it as options.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The kid of the key to retire (see `cognate keys list`).", valueName: "kid"))
        var words: [String]

        private var kids: [String] { words.filter { $0 != "--" } }
        var kid: String { kids[0] }

        func validate() throws {
            guard kids.count == 1 else { throw ValidationError("Name exactly one kid; `cognate keys list` shows them.") }
        }

        func run() async throws {
            let outcome = try await database.withStore { store in try await SigningKeyRing.retire(kid: kid, in: store, now: Date()) }
            guard let outcome else { throw ValidationError("No signing key has the kid \(kid).") }
            print("Retired \(outcome.retired.kid) (\(outcome.retired.poolId ?? "every pool")); running servers drop it within a second.")
            if let replacement = outcome.replacement { print("\(replacement.poolId ?? ""): now signing with \(replacement.kid).") }
        }
    }
}

/// Prints `object` as one line of JSON with sorted keys (the `--json` output of the database commands).
func printJSONLine(_ object: [String: String]) throws {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    print(String(decoding: data, as: UTF8.self))
}
