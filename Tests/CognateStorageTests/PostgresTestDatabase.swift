import CognateStorage
import CognateCore
import Foundation
import Logging
import Testing

/// Fresh PostgreSQL databases for tests, on the server `COGNATE_TEST_POSTGRES_URL` names
/// (Scripts/with-postgres starts one). Tests needing PostgreSQL are skipped only when
/// `COGNATE_SKIP_POSTGRES=1` says so; without either variable they fail, never silently pass.
enum PostgresTestDatabase {
    static let environment = ProcessInfo.processInfo.environment
    static var skipped: Bool { environment["COGNATE_SKIP_POSTGRES"] == "1" }
    static var serverURL: String? { environment["COGNATE_TEST_POSTGRES_URL"] }
    /// Whether the server runs on this machine (its processes can be seen and signalled).
    static var isLocal: Bool {
        guard !skipped, let serverURL, let host = URLComponents(string: serverURL)?.host else { return false }
        return ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
    }

    /// Generous limits: the suites run beside every other test on two cores, and a starved
    /// machine must make them slow, not fail.
    static let options = DatabaseOptions(poolSize: 20, statementTimeout: nil, connectionWaitTimeout: 120)

    struct NotConfigured: Error, CustomStringConvertible {
        var description: String {
            "COGNATE_TEST_POSTGRES_URL is not set: run the tests through Scripts/with-postgres (Scripts/test does), "
                + "or set COGNATE_SKIP_POSTGRES=1 to skip the PostgreSQL tests deliberately."
        }
    }

    /// Creates an empty database and returns its URL. Its default collation is linguistic (ICU's
    /// en-US, as on many production servers), so that nothing passes here only because the test
    /// server compares bytes.
    static func create() async throws -> String {
        guard let serverURL else { throw NotConfigured() }
        let name = "cognate_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let admin = try await SQLStore.openBackend(serverURL, options: options, logger: Logger(label: "test"))
        do {
            // The name is made of [0-9a-z_] only, so it needs no quoting.
            _ = try await admin.withMigrationLock { try await $0.execute(
                "CREATE DATABASE \(unsafeRaw: String(name)) TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.utf8'")
            }
        } catch {
            await admin.shutdown()
            throw error
        }
        await admin.shutdown()
        var components = URLComponents(string: serverURL)!
        components.path = "/" + name
        return components.string!
    }
}
