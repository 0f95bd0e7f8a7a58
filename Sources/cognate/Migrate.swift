import ArgumentParser
import CognateStorage
import Logging

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bring the database schema up to date, creating the database (a SQLite file, or the tables in PostgreSQL) if it has none.")

    @OptionGroup var database: DatabaseOption

    func run() async throws {
        let logger = Logger(label: "cognate")
        let options = try database.options()
        let backend: any SQLBackend
        do {
            backend = try await SQLStore.openBackend(database.resolved, options: options, logger: logger)
        } catch {
            throw database.openingFailure(error)
        }
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
