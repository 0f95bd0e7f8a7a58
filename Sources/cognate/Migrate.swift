import ArgumentParser
import CognateStorage
import Logging

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Bring the database schema up to date.")

    @OptionGroup var database: DatabaseOption

    func run() async throws {
        let logger = Logger(label: "cognate")
        let backend = try await SQLStore.openBackend(database.resolved, options: try database.options(), logger: logger)
        do {
            let applied = try await Migrator.migrate(backend, logger: logger)
            print(applied.isEmpty
                ? "Schema is up to date (version \(Migrator.latestVersion))."
                : "Applied migrations \(applied.map(String.init).joined(separator: ", ")); schema is at version \(Migrator.latestVersion).")
        } catch {
            await backend.shutdown()
            throw error
        }
        await backend.shutdown()
    }
}
