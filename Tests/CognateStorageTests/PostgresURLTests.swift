@testable import CognateStorage
import Foundation
import Testing

/// A PostgreSQL URL means here what it means to libpq (`psql`); the connections themselves are
/// tested from outside (compat/test_postgres_connection.py).
struct PostgresURLTests {
    /// No variables, no system user, and a home without a password file.
    static let bare = PostgresURL.Environment(variables: [:], systemUser: { nil }, homeDirectory: { "/nonexistent" })

    static func with(_ variables: [String: String], user: String? = nil) -> PostgresURL.Environment {
        PostgresURL.Environment(variables: variables, systemUser: { user }, homeDirectory: { "/nonexistent" })
    }

    @Test func readsEveryPartOfATCPURL() throws {
        let url = try PostgresURL("postgresql://app%40x:p%3Ass@db.internal:6543/my%20db?sslmode=verify-full", environment: Self.bare)
        #expect(url.endpoint == .tcp(host: "db.internal", port: 6543))
        #expect(url.user == "app@x")
        #expect(url.password == "p:ss")
        #expect(url.database == "my db")
        #expect(url.tlsMode == .verifyFull)
    }

    @Test func defaultsAsLibpqDoes() throws {
        let url = try PostgresURL("postgres://db", environment: Self.with([:], user: "cognate"))
        #expect(url.endpoint == .tcp(host: "db", port: 5432))
        #expect(url.user == "cognate")
        #expect(url.password == nil)
        #expect(url.database == nil)
        #expect(url.tlsMode == .prefer)
        #expect(try PostgresURL("postgres://db", environment: Self.with(["PGUSER": "ops"], user: "cognate")).user == "ops")
        #expect(throws: StorageError.self) { try PostgresURL("postgres://db", environment: Self.bare) }
        let port = try PostgresURL("postgres://u@db", environment: Self.with(["PGPORT": "6000"]))
        #expect(port.endpoint == .tcp(host: "db", port: 6000))
        #expect(try PostgresURL("postgres://u@db:7000", environment: Self.with(["PGPORT": "6000"])).endpoint
            == .tcp(host: "db", port: 7000))
    }

    @Test func aHostThatIsADirectoryIsAUnixSocket() throws {
        let parameter = try PostgresURL("postgresql:///cognate?host=/run/postgresql/&port=5433&user=app", environment: Self.bare)
        #expect(parameter.endpoint == .unixSocket(path: "/run/postgresql/.s.PGSQL.5433"))
        #expect(parameter.user == "app")
        #expect(parameter.database == "cognate")
        #expect(parameter.tlsConfiguration() == nil)
        let encoded = try PostgresURL("postgres://app@%2Fvar%2Frun%2Fpostgresql/cognate", environment: Self.bare)
        #expect(encoded.endpoint == .unixSocket(path: "/var/run/postgresql/.s.PGSQL.5432"))
        let fromEnvironment = try PostgresURL("postgresql:///cognate", environment: Self.with(["PGHOST": "/tmp"], user: "app"))
        #expect(fromEnvironment.endpoint == .unixSocket(path: "/tmp/.s.PGSQL.5432"))
    }

    @Test func refusesWhatItCannotUse() {
        for url in ["mysql://u@h/db", "postgres:///db", "postgres://u@h/db?sslmode=on", "postgres://u@h/db?port=0",
                    "postgres://u@h/db?port=x"] {
            #expect(throws: StorageError.self, "\(url)") { try PostgresURL(url, environment: Self.bare) }
        }
    }

    @Test func onlyTheVerifyingModesCheckTheCertificate() throws {
        for (mode, verification, required) in [("allow", "none(", false), ("prefer", "none(", false),
                                               ("require", "none(", true), ("verify-ca", "noHostnameVerification", true),
                                               ("verify-full", "fullVerification", true)] {
            let tls = try #require(try PostgresURL("postgres://u@h/db?sslmode=\(mode)", environment: Self.bare).tlsConfiguration())
            #expect("\(tls.0.certificateVerification)".hasPrefix(verification), "\(mode)")
            #expect(tls.required == required, "\(mode)")
        }
        #expect(try PostgresURL("postgres://u@h/db?sslmode=disable", environment: Self.bare).tlsConfiguration() == nil)
    }

    @Test func thePasswordComesFromTheURLThenPGPASSWORDThenThePasswordFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("pgpass").path
        try "# comment\nother:*:*:*:nope\ndb:5432:cognate:app:from\\:file\n*:*:*:*:fallback\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let environment = Self.with(["PGPASSFILE": file])

        #expect(try PostgresURL("postgres://app:inline@db/cognate", environment: environment).password == "inline")
        #expect(try PostgresURL("postgres://app@db/cognate", environment: Self.with(["PGPASSFILE": file, "PGPASSWORD": "env"])).password == "env")
        #expect(try PostgresURL("postgres://app@db/cognate", environment: environment).password == "from:file")
        #expect(try PostgresURL("postgres://app@db/elsewhere", environment: environment).password == "fallback")

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let exposed = try PostgresURL("postgres://app@db/cognate", environment: environment)
        #expect(exposed.password == nil)
        #expect(exposed.passwordFileIgnored?.contains("chmod 0600") == true)
    }

    @Test func passwordFileLinesFollowLibpq() {
        let entries = PostgresPasswordFile.parse("localhost:*:*:app:a:b\\\\c\r\n#x:*:*:*:no\n\nshort:line\n")
        #expect(entries == [.init(host: "localhost", port: "*", database: "*", user: "app", password: "a:b\\c")])
        // A socket connection also matches "localhost".
        #expect(entries.password(host: "/run/postgresql", port: 5432, database: "d", user: "app", isSocket: true) == "a:b\\c")
        #expect(entries.password(host: "db", port: 5432, database: "d", user: "app", isSocket: false) == nil)
    }
}

/// What messages, logs and `cognate config check` show of a database location.
struct RedactedLocationTests {
    @Test func aPasswordInTheUserPartIsHidden() {
        #expect(SQLStore.redacted("postgres://app:s3cret@db/cognate") == "postgres://app:***@db/cognate")
    }

    @Test func aPasswordParameterIsHidden() {
        let shown = SQLStore.redacted("postgresql://app@db/cognate?sslmode=require&password=s3cret")
        #expect(!shown.contains("s3cret"))
        #expect(shown == "postgresql://app@db/cognate?sslmode=require&password=***")
    }

    @Test func locationsWithoutAPasswordAreUnchanged() {
        #expect(SQLStore.redacted("./.cognate/cognate.sqlite") == "./.cognate/cognate.sqlite")
        #expect(SQLStore.redacted("postgres://app@db/cognate?sslmode=require") == "postgres://app@db/cognate?sslmode=require")
    }
}
