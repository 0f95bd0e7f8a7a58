import CognateStorage
import Foundation
import Logging
import Testing

/// The conformance suite on SQLite (a fresh file per case).
struct SQLiteStoreTests {
    @Test(arguments: StoreConformance.cases)
    func conformance(_ check: StoreConformance.Case) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cognate-\(UUID().uuidString).sqlite").path
        let store = try await SQLStore.open(path, logger: Logger(label: "test"))
        do { try await check.run(store) } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    @Test func migrationsAreIdempotentAndRefuseANewerSchema() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cognate-\(UUID().uuidString).sqlite").path
        let backend = try await SQLStore.openBackend(path, logger: Logger(label: "test"))
        #expect(try await Migrator.migrate(backend) == Array(1...Migrator.latestVersion))
        #expect(try await Migrator.migrate(backend).isEmpty)
        _ = try await backend.write { session in
            try await session.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)")
        }
        await #expect(throws: Migrator.MigrationError.self) { try await Migrator.migrate(backend) }
        await backend.shutdown()
    }
}
