import Foundation
import NIOSSL
import PostgresNIO

/// Where and how to connect to PostgreSQL, read from a libpq connection URL the way `psql`
/// reads it, so the URL that works there works here:
///
///     postgres[ql]://[user[:password]@][host][:port][/database][?parameter=value&…]
///
/// - `host` is a name or address for TCP, or, given as the `host` parameter or percent-encoded
///   (`%2Frun%2Fpostgresql`), the directory of a Unix-domain socket (`<dir>/.s.PGSQL.<port>`).
/// - Without a host, `PGHOST`'s; without a port, `PGPORT`'s, then 5432. The user defaults to
///   `PGUSER`, then the operating system's user; the password to `PGPASSWORD`, then the password file (`PGPASSFILE`, default `$HOME/.pgpass`; libpq's format,
///   ignored when others than its owner may read it).
/// - `sslmode` as in libpq: `disable`; `allow` and `prefer` (the default) encrypt when the
///   server offers it; `require` insists on encryption; none of these check the server's
///   certificate (so a server with a self-signed certificate, as Debian sets up, is reachable).
///   `verify-ca` checks the chain against `sslrootcert` (a PEM file; default the system's
///   roots), `verify-full` the host name too. Unix sockets never use TLS.
struct PostgresURL: Sendable {
    enum Endpoint: Sendable, Equatable {
        case tcp(host: String, port: Int)
        case unixSocket(path: String)
    }

    enum TLSMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    var endpoint: Endpoint
    var user: String
    var password: String?
    var database: String?
    var tlsMode: TLSMode
    var rootCertificates: String?
    /// Why the password file was passed over, for the operator's log (nil when it was not).
    var passwordFileIgnored: String?

    /// The process's view of the defaults libpq reads from the environment and the home directory.
    struct Environment: Sendable {
        var variables: [String: String] = ProcessInfo.processInfo.environment
        var systemUser: @Sendable () -> String? = { ProcessInfo.processInfo.userName.isEmpty ? nil : ProcessInfo.processInfo.userName }
        var homeDirectory: @Sendable () -> String = { ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory() }
    }

    init(_ url: String, environment: Environment = Environment()) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? "") else {
            throw StorageError.unreachable("Not a PostgreSQL URL: \(SQLStore.redacted(url))")
        }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] { parameters[item.name] = item.value ?? "" }

        let port = try parameters["port"].map(Self.port) ?? components.port
            ?? environment.variables["PGPORT"].map(Self.port) ?? 5432
        let named = parameters["host"] ?? components.percentEncodedHost.flatMap { $0.removingPercentEncoding } ?? ""
        let host = named.isEmpty ? environment.variables["PGHOST"] ?? "" : named
        if host.hasPrefix("/") {
            endpoint = .unixSocket(path: "\(host.hasSuffix("/") ? String(host.dropLast()) : host)/.s.PGSQL.\(port)")
        } else if host.isEmpty {
            throw StorageError.unreachable(
                "The PostgreSQL URL names no host (a name, an address, or ?host=/socket/directory) and PGHOST is not set: \(SQLStore.redacted(url))")
        } else {
            endpoint = .tcp(host: host, port: port)
        }

        let database = parameters["dbname"] ?? String(components.path.drop { $0 == "/" }).removingPercentEncoding
        self.database = database?.isEmpty == false ? database : nil
        guard let user = parameters["user"] ?? components.user?.removingPercentEncoding
            ?? environment.variables["PGUSER"] ?? environment.systemUser()
        else { throw StorageError.unreachable("The PostgreSQL URL names no user: \(SQLStore.redacted(url))") }
        self.user = user

        let mode = parameters["sslmode"] ?? "prefer"
        guard let tlsMode = TLSMode(rawValue: mode) else {
            throw StorageError.unreachable(
                "Unknown sslmode \"\(mode)\" (one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))).")
        }
        self.tlsMode = tlsMode
        rootCertificates = parameters["sslrootcert"].flatMap { $0.isEmpty || $0 == "system" ? nil : $0 }

        if let password = parameters["password"] ?? components.password?.removingPercentEncoding {
            self.password = password
        } else if let password = environment.variables["PGPASSWORD"] {
            self.password = password
        } else {
            let file = environment.variables["PGPASSFILE"] ?? environment.homeDirectory() + "/.pgpass"
            switch PostgresPasswordFile.read(file) {
            case .absent: password = nil
            case .ignored(let reason): password = nil; passwordFileIgnored = reason
            case .entries(let entries):
                password = entries.password(host: host, port: port,
                                            database: self.database ?? user, user: user, isSocket: host.hasPrefix("/"))
            }
        }
    }

    private static func port(_ text: String) throws -> Int {
        guard let port = Int(text), (1...65535).contains(port) else {
            throw StorageError.unreachable("Not a port number: \(text)")
        }
        return port
    }

    /// The TLS settings this URL asks for, nil for none (a socket, or `sslmode=disable`).
    func tlsConfiguration() -> (TLSConfiguration, required: Bool)? {
        guard case .tcp = endpoint, tlsMode != .disable else { return nil }
        var tls = TLSConfiguration.makeClientConfiguration()
        switch tlsMode {
        case .disable, .allow, .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let rootCertificates { tls.trustRoots = .file(rootCertificates) }
        return (tls, tlsMode == .require || tlsMode == .verifyCA || tlsMode == .verifyFull)
    }

    var clientConfiguration: PostgresClient.Configuration {
        switch endpoint {
        case .unixSocket(let path):
            return PostgresClient.Configuration(unixSocketPath: path, username: user, password: password, database: database)
        case .tcp(let host, let port):
            let tls: PostgresClient.Configuration.TLS = switch tlsConfiguration() {
            case nil: .disable
            case let (configuration, required)?: required ? .require(configuration) : .prefer(configuration)
            }
            return PostgresClient.Configuration(host: host, port: port, username: user, password: password,
                                                database: database, tls: tls)
        }
    }

    /// The same settings for a single connection, to ask PostgreSQL directly why the pool
    /// cannot connect.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        switch endpoint {
        case .unixSocket(let path):
            return PostgresConnection.Configuration(unixSocketPath: path, username: user, password: password, database: database)
        case .tcp(let host, let port):
            let tls: PostgresConnection.Configuration.TLS = switch tlsConfiguration() {
            case nil: .disable
            case let (configuration, required)?:
                required ? .require(try NIOSSLContext(configuration: configuration))
                    : .prefer(try NIOSSLContext(configuration: configuration))
            }
            return PostgresConnection.Configuration(host: host, port: port, username: user, password: password,
                                                    database: database, tls: tls)
        }
    }
}
