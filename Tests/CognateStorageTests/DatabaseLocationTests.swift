@testable import CognateStorage
import Foundation
import Logging
import NIOCore
import NIOPosix
import Testing

/// What a database location names, and what opening one refuses before it changes anything.
struct DatabaseLocationTests {
    static func temporaryPath(_ name: String = "cognate-\(UUID().uuidString).sqlite") -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent(name).path
    }

    @Test func pathsAndTheTwoPostgresSchemes() throws {
        #expect(try DatabaseLocation("./.cognate/cognate.sqlite") == .sqlite(path: "./.cognate/cognate.sqlite"))
        #expect(try DatabaseLocation("/var/lib/cognate/db.sqlite") == .sqlite(path: "/var/lib/cognate/db.sqlite"))
        #expect(try DatabaseLocation("sqlite:///var/lib/x.sqlite") == .sqlite(path: "/var/lib/x.sqlite"))
        #expect(try DatabaseLocation("file:///var/lib/my%20x.sqlite") == .sqlite(path: "/var/lib/my x.sqlite"))
        #expect(try DatabaseLocation("data/c:d.sqlite") == .sqlite(path: "data/c:d.sqlite"))   // no scheme://
        #expect(try DatabaseLocation("postgres://db/x") == .postgres(url: "postgres://db/x"))
        #expect(try DatabaseLocation("postgresql://db/x") == .postgres(url: "postgresql://db/x"))
    }

    /// A misspelt scheme became a SQLite file in a directory named after it (`postgress:/…`).
    @Test(arguments: ["postgress://app@db/x", "mysql://db/x", "http://db/x", "pg://u:s3cret@db/x"])
    func anUnknownSchemeIsRefusedNamingTheKnownOnes(_ location: String) async throws {
        let text = "\(#expect(throws: StorageError.self) { try DatabaseLocation(location) }.map { "\($0)" } ?? "")"
        #expect(text.contains("Unknown database scheme") && text.contains("postgres://") && text.contains("postgresql://")
            && text.contains("path") && !text.contains("s3cret"), "\(text)")
        let directory = FileManager.default.currentDirectoryPath + "/" + location.prefix { $0 != "/" }
        await #expect(throws: StorageError.self) { try await SQLStore.open(location, logger: Logger(label: "test")) }
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    /// Commands that work on a server's database neither create a file nor give a foreign or
    /// empty one Cognate's tables.
    @Test func withoutCreatingAMissingEmptyOrForeignDatabaseIsRefusedAndLeftAsItWas() async throws {
        let missing = Self.temporaryPath("cognate-missing-\(UUID().uuidString)/db.sqlite")
        let absent = await #expect(throws: StorageError.self) {
            try await SQLStore.open(missing, logger: Logger(label: "test"), creating: false)
        }
        #expect(absent.map { "\($0)" } == "No database at \(missing).")
        #expect(!FileManager.default.fileExists(atPath: (missing as NSString).deletingLastPathComponent))

        let empty = Self.temporaryPath()
        FileManager.default.createFile(atPath: empty, contents: Data())
        await #expect(throws: StorageError.self) { try await SQLStore.open(empty, logger: Logger(label: "test"), creating: false) }
        #expect(try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int == 0)

        let foreign = Self.temporaryPath()
        let other = try SQLiteConnection(path: foreign, readOnly: false)
        try other.run("CREATE TABLE notes (body TEXT)")
        other.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: foreign))
        let notOurs = await #expect(throws: StorageError.self) {
            try await SQLStore.open(foreign, logger: Logger(label: "test"), creating: false)
        }
        #expect(notOurs.map { "\($0)" }?.contains("without Cognate's tables") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: foreign)) == before)

        let made = try await SQLStore.open(Self.temporaryPath(), logger: Logger(label: "test"))   // creating, as serve
        let path = (made.backend as! SQLiteBackend).path
        await made.close()
        let existing = try await SQLStore.open(path, logger: Logger(label: "test"), creating: false)
        await existing.close()
    }

    /// `--database notes.txt` narrowed the file's mode, then failed: a file that is not a SQLite
    /// database is refused first, its mode and content unchanged; so is a directory.
    @Test func aFileThatIsNotADatabaseIsRefusedUntouched() async throws {
        let notes = Self.temporaryPath("notes-\(UUID().uuidString).txt")
        try Data("remember the milk\n".utf8).write(to: URL(fileURLWithPath: notes))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: notes)
        let refused = await #expect(throws: StorageError.self) { try await SQLStore.open(notes, logger: Logger(label: "test")) }
        #expect(refused.map { "\($0)" }?.contains("is not a SQLite database") == true)
        let attributes = try FileManager.default.attributesOfItem(atPath: notes)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o644)
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "remember the milk\n")
        #expect(!FileManager.default.fileExists(atPath: notes + "-wal"))

        let directory = await #expect(throws: StorageError.self) {
            try await SQLStore.open(FileManager.default.temporaryDirectory.path, logger: Logger(label: "test"))
        }
        #expect(directory.map { "\($0)" }?.contains("is a directory") == true)
    }

    /// One line, where and why; whether PostgreSQL runs there when nothing answered.
    @Test func aConnectionFailureIsOneSentence() throws {
        let url = try PostgresURL("postgres://app@127.0.0.1:1/x", environment: PostgresURLTests.bare)
        let refused = PostgresBackend.networkFailure(IOError(errnoCode: ECONNREFUSED, reason: "connect"))
        #expect(refused?.sentence(url, waited: 10)
            == "Cannot connect to PostgreSQL at 127.0.0.1:1: connection refused (for 10 s); is PostgreSQL running there?")
        let password = PostgresBackend.ConnectionFailure(
            reason: "password authentication failed for user \"app\"", final: true, refusedUser: true)
        #expect(password.sentence(url, waited: nil)
            == "Cannot connect to PostgreSQL at 127.0.0.1:1 as app: password authentication failed for user \"app\"")
        let socket = try PostgresURL("postgresql:///x?host=/run/postgresql&user=app", environment: PostgresURLTests.bare)
        #expect(PostgresBackend.networkFailure(IOError(errnoCode: ENOENT, reason: "connect"))?.sentence(socket, waited: nil)
            == "Cannot connect to PostgreSQL at /run/postgresql/.s.PGSQL.5432: no socket there; is PostgreSQL running there?")
    }

    /// PostgresNIO's info lines (one per failed attempt) show only at debug level and below.
    @Test func theDriverLogsItsInfoLinesAtDebugOnly() {
        var logger = Logger(label: "test")
        logger.logLevel = .info
        #expect(PostgresBackend.driverLogger(logger).logLevel == .notice)
        logger.logLevel = .debug
        #expect(PostgresBackend.driverLogger(logger).logLevel == .debug)
        logger.logLevel = .error
        #expect(PostgresBackend.driverLogger(logger).logLevel == .error)
    }
}
