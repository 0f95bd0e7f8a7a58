@testable import CognateStorage
import CognateCore
import Foundation
import Logging
import Testing

/// Statements whose cost must not grow with the tables they touch find their rows through an
/// index: SQLite's plan for each names no `SCAN` of a table.
struct QueryPlanTests {
    static func plan(of statement: SQLStatement, in backend: any SQLBackend) async throws -> [String] {
        try await backend.read { session in
            try await session.execute("EXPLAIN QUERY PLAN " + statement).map { try $0.string("detail") }
        }
    }

    static func migratedBackend() async throws -> any SQLBackend {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cognate-\(UUID().uuidString).sqlite").path
        let backend = try await SQLStore.openBackend(path, logger: Logger(label: "test"))
        _ = try await Migrator.migrate(backend)
        return backend
    }

    /// The sweep runs every minute in a write transaction; a scan of devices took 0.23 s with a
    /// million of them. Signing keys, a handful per pool, are the one table read whole.
    @Test func everySweepFindsItsExpiredRowsThroughAnIndex() async throws {
        let backend = try await Self.migratedBackend()
        for kind in ExpiringRecords.allCases where kind != .signingKeys {
            let statement = SQLTransaction.deletionOfExpired(kind, before: Date(), limit: 1000, flavor: .sqlite)
            let plan = try await Self.plan(of: statement, in: backend)
            #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(kind): \(plan)")
        }
        await backend.shutdown()
    }

    /// Confirmation, recovery and attribute codes are found by their whole key: the number of
    /// their user, found by its `sub`, and their purpose.
    @Test func aCodeIsFoundByItsKey() async throws {
        let backend = try await Self.migratedBackend()
        let plan = try await Self.plan(
            of: "SELECT * FROM codes WHERE " + SQLTransaction.codeKey(SQLTransaction.userNumberLookup("p1", "sub-a"), .signUp), in: backend)
        #expect(!plan.contains { $0.hasPrefix("SCAN") } && plan.contains { $0.hasPrefix("SEARCH codes USING INDEX") }
            && plan.contains { $0.hasPrefix("SEARCH users USING") }, "\(plan)")
        await backend.shutdown()
    }
}
