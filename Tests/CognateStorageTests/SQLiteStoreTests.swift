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

    /// Migrations keep temporary storage on disk (a table rebuilt in one statement journals
    /// every freed page it reuses: 560 MB of memory for a million users), and the writer has
    /// it in memory again after them (the savepoints' journals of group commit).
    @Test func migrationsJournalOnDiskAndWritesInMemory() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cognate-\(UUID().uuidString).sqlite").path
        let backend = try await SQLStore.openBackend(path, logger: Logger(label: "test"))
        let during = try await backend.withMigrationLock { try await $0.execute("PRAGMA temp_store").first?.int("temp_store") }
        let after = try await backend.write { try await $0.execute("PRAGMA temp_store").first?.int("temp_store") }
        #expect(during == 1 && after == 2, "temp_store 1 is FILE, 2 MEMORY")
        await backend.shutdown()
    }

    /// Checkpoints run beside the writer (`SQLiteCheckpointer`), not in its commits; under
    /// writes that never pause, the writer copies what came after each and the log still
    /// starts over: its file stays far below both the bytes written (64 MB) and the backstop
    /// at which the writer checkpoints alone (8,000 pages, 32 MB). Every row stays readable.
    @Test func theLogStartsOverUnderWritesThatNeverPause() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cognate-\(UUID().uuidString).sqlite").path
        let backend = try await SQLStore.openBackend(path, logger: Logger(label: "test"))
        _ = try await backend.write { try await $0.execute("CREATE TABLE filler (id INTEGER PRIMARY KEY, data TEXT NOT NULL)") }
        let row = String(repeating: "x", count: 40_000)  // about ten pages per transaction
        let writers = 8, rowsEach = 200
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<writers {
                group.addTask {
                    for _ in 0..<rowsEach {
                        _ = try await backend.write { try await $0.execute("INSERT INTO filler (data) VALUES (\(bind: row))") }
                    }
                }
            }
            try await group.waitForAll()
        }
        let logSize = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
        #expect(logSize < 16_000_000, "log file of \(logSize) bytes")
        let count = try await backend.read { try await $0.execute("SELECT count(*) AS n FROM filler") }
        #expect(try count.first?.int("n") == writers * rowsEach)
        await backend.shutdown()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
